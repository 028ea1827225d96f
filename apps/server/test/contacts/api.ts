/** Calls of the contacts API as one signed-in user, for the contacts suites. */
import type { TestApp } from '../helpers/app.js';

export type Client = ReturnType<typeof clientOf>;

/** Encodes a file upload the way a browser does, through Node's FormData and Response. */
async function multipart(fileName: string, content: Buffer | string, type: string) {
  const form = new FormData();
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), fileName);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '' };
}

export function clientOf(t: TestApp, token: string) {
  const headers = { 'x-token': token };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
  const client = {
    get: (url: string) => call('GET', url),
    post: (url: string, payload: object = {}) => call('POST', url, payload),
    put: (url: string, payload: object) => call('PUT', url, payload),
    delete: (url: string) => call('DELETE', url),

    async upload(listId: number, fileName: string, content: Buffer | string, type = 'text/csv') {
      const { payload, contentType } = await multipart(fileName, content, type);
      return t.app.inject({
        method: 'POST',
        url: `/api/data/contact-lists/${listId}/imports`,
        payload,
        headers: { ...headers, 'content-type': contentType },
      });
    },

    async createList(
      name = `List ${Math.random().toString(36).slice(2, 8)}`,
      defaultCountry: string | null = 'UA',
    ): Promise<number> {
      const res = await client.post('/api/data/contact-lists', { name, defaultCountry });
      if (res.statusCode !== 200) throw new Error(`list not created: ${res.body}`);
      return res.json().id;
    },

    /** Waits until the import is no longer running and answers it. */
    async settled(importId: number) {
      for (let attempt = 0; attempt < 400; attempt++) {
        const res = await client.get(`/api/data/imports/${importId}`);
        const state = res.json();
        if (state.status !== 'running') return state;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`import ${importId} still running`);
    },

    /** Uploads, starts with the suggested mapping (or the one given) and waits for the end. */
    async importFile(listId: number, content: Buffer | string, start: { mode?: string; mapping?: Record<string, string> } = {}) {
      const uploaded = await client.upload(listId, 'contacts.csv', content);
      if (uploaded.statusCode !== 200) throw new Error(`upload refused: ${uploaded.body}`);
      const { importId, preview } = uploaded.json();
      const started = await client.post(`/api/data/imports/${importId}/start`, {
        mapping: start.mapping ?? preview.suggestedMapping,
        mode: start.mode ?? 'add',
      });
      if (started.statusCode !== 200) throw new Error(`start refused: ${started.body}`);
      return client.settled(importId);
    },

    /** Every contact of a list, oldest first, as the API shows them. */
    async allContacts(listId: number) {
      const res = await client.get(`/api/data/contact-lists/${listId}/contacts?size=100`);
      return (res.json().items as { id: number }[]).sort((a, b) => a.id - b.id);
    },
  };
  return client;
}
