import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFromServer, generateTypes, OUTPUT } from '../scripts/generate-types.js';

describe('generated types', () => {
  it('match what the generator makes from the server’s current OpenAPI document (run npm run generate -w packages/sdk)', async () => {
    const source = await generateTypes(await documentFromServer());
    expect(source).toContain('export interface SendMessageRequest');
    expect(source).toContain('messages: SendMessageRequest[];');
    expect(readFileSync(OUTPUT, 'utf8')).toBe(source);
  }, 120_000);
});
