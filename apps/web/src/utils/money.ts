/** An amount as providers state it: a localized number and their currency code (balances, SMS cost estimates). */
export function formatMoney(amount: number, currency: string | null, language: string): string {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 4 }).format(amount);
  return currency ? `${number} ${currency}` : number;
}
