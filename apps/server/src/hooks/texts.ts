/** The Slack texts of each event, in the account's language (ru when it has none saved, as the console defaults). */
import type { Language, NotifyEvent } from '@herald/shared';

type Params = Record<string, string | number>;

const TEXTS: Record<Language, Record<NotifyEvent | 'test', string>> = {
  en: {
    test: 'Test notification from Herald: this channel will receive the events you chose.',
    'campaign.started': 'Campaign "{name}" (#{id}) started sending.',
    'campaign.finished': 'Campaign "{name}" (#{id}) has finished: {sent} sent, {failed} failed.',
    'campaign.autoPaused':
      'Campaign "{name}" (#{id}) was paused automatically: {failed} of its last {settled} messages failed. Check its provider configs, then resume it.',
    'provider.failing':
      'Provider config "{config}" is failing ({failures} failures in a row); messages go to the next config of the group.',
    'balance.low': 'The balance of provider config "{config}" is {amount} {currency}, under your threshold of {threshold}.',
    'limit.reached': 'Provider config "{config}" has reached its {limit} limit; further messages wait or go to the next config.',
  },
  ru: {
    test: 'Тестовое уведомление Herald: в этот канал будут приходить выбранные вами события.',
    'campaign.started': 'Рассылка «{name}» (#{id}) начала отправку.',
    'campaign.finished': 'Рассылка «{name}» (#{id}) завершена: отправлено {sent}, не отправлено {failed}.',
    'campaign.autoPaused':
      'Рассылка «{name}» (#{id}) автоматически приостановлена: {failed} из последних {settled} сообщений не отправлены. Проверьте конфигурации провайдеров и возобновите её.',
    'provider.failing':
      'Конфигурация провайдера «{config}» не работает (ошибок подряд: {failures}); сообщения идут в следующую конфигурацию группы.',
    'balance.low': 'Баланс конфигурации провайдера «{config}» — {amount} {currency}, ниже вашего порога {threshold}.',
    'limit.reached':
      'Конфигурация провайдера «{config}» исчерпала {limit} лимит; следующие сообщения ждут или идут в следующую конфигурацию.',
  },
  uk: {
    test: 'Тестове сповіщення Herald: у цей канал надходитимуть обрані вами події.',
    'campaign.started': 'Розсилка «{name}» (#{id}) почала надсилання.',
    'campaign.finished': 'Розсилку «{name}» (#{id}) завершено: надіслано {sent}, не надіслано {failed}.',
    'campaign.autoPaused':
      'Розсилку «{name}» (#{id}) автоматично призупинено: {failed} з останніх {settled} повідомлень не надіслано. Перевірте конфігурації провайдерів і відновіть її.',
    'provider.failing':
      'Конфігурація провайдера «{config}» не працює (помилок поспіль: {failures}); повідомлення йдуть до наступної конфігурації групи.',
    'balance.low': 'Баланс конфігурації провайдера «{config}» — {amount} {currency}, нижче вашого порогу {threshold}.',
    'limit.reached':
      'Конфігурація провайдера «{config}» вичерпала {limit} ліміт; наступні повідомлення чекають або йдуть до наступної конфігурації.',
  },
};

const LIMIT_WORDS: Record<Language, Record<'day' | 'month', string>> = {
  en: { day: 'daily', month: 'monthly' },
  ru: { day: 'дневной', month: 'месячный' },
  uk: { day: 'денний', month: 'місячний' },
};

export function limitWord(language: Language, limit: 'day' | 'month'): string {
  return LIMIT_WORDS[language][limit];
}

export function hookText(language: Language, event: NotifyEvent | 'test', params: Params = {}): string {
  return TEXTS[language][event].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));
}
