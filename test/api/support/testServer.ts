/**
 * A tiny scripted HTTP server on 127.0.0.1 (port 0) for the client's unit tests: it records every request
 * (method, url, headers, body) and the number of TCP connections, and answers with the test's handler.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's exact bytes (uploads are binary). */
  raw: Buffer;
}

export type Handler = (request: RecordedRequest, response: http.ServerResponse) => void | Promise<void>;

export interface TestServer {
  url: string;
  requests: RecordedRequest[];
  /** TCP connections accepted so far (keep-alive reuses them). */
  connections(): number;
  close(): Promise<void>;
}

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw.toString('utf8'), raw };
      requests.push(recorded);
      // A handler bug answers 599 instead of leaving the client waiting for its timeout.
      Promise.resolve()
        .then(() => handler(recorded, res))
        .catch((error: unknown) => {
          res.statusCode = 599;
          res.end(String(error));
        });
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with a JSON:API document. */
export function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/vnd.api+json', ...headers });
  response.end(JSON.stringify(body));
}

/** A minimal valid run resource, with whatever attributes the test adds. */
export function runResource(id: string, attributes: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, type: 'runs', attributes: { status: 'pending', ...attributes }, relationships: {}, links: { self: `/api/v2/runs/${id}` } };
}
