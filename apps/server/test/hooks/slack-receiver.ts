/** A local HTTP server standing in for Slack's incoming webhooks: /ok answers 200, /fail 500, /hang never answers. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPost {
  path: string;
  contentType: string | undefined;
  body: { text?: unknown; username?: unknown } & Record<string, unknown>;
  at: number;
}

export interface SlackReceiver {
  url(path: string): string;
  posts: ReceivedPost[];
  postsTo(path: string): ReceivedPost[];
  close(): Promise<void>;
}

/** `/flaky-N-…` answers 500 to its first N posts and 200 after. */
export async function startSlackReceiver(): Promise<SlackReceiver> {
  const posts: ReceivedPost[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      let body: ReceivedPost['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = { unparsable: Buffer.concat(chunks).toString('utf8') };
      }
      posts.push({ path, contentType: request.headers['content-type'], body, at: Date.now() });
      const seen = posts.filter((post) => post.path === path).length;
      const flaky = /^\/flaky-(\d+)/.exec(path);
      if (path.startsWith('/hang')) {
        hanging.add(response);
        return;
      }
      if (path.startsWith('/fail') || (flaky && seen <= Number(flaky[1]))) {
        response.writeHead(500, { 'content-type': 'text/plain' }).end('server_error');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    posts,
    postsTo: (path) => posts.filter((post) => post.path === path),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
