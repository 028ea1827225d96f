/** ICU's name for an IANA zone, null when it knows none: it may report a server in Kyiv as "Europe/Kiev", which the reference lists as "Europe/Kyiv". */
export function canonicalZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
