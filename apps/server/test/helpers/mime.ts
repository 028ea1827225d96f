/** The text of every part of a raw MIME message, with base64 and quoted-printable bodies decoded. */
export function decodedText(raw: string): string {
  const parts = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  return parts
    .map((part) => {
      const split = part.search(/\r?\n\r?\n/);
      if (split < 0) return part;
      const headers = part.slice(0, split);
      const body = part.slice(split).trim();
      if (/content-transfer-encoding:\s*base64/i.test(headers))
        return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
        return body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      }
      return body;
    })
    .join('\n');
}
