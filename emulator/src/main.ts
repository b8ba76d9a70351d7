// Placeholder until the emulator lands (issue 3): answers the ping endpoint only.
import { createServer } from 'node:http';
const port = Number(process.argv[process.argv.indexOf('--port') + 1] ?? 0) || 0;
const server = createServer((req, res) => {
  res.writeHead(req.url === '/api/v2/ping' ? 204 : 404).end();
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`http://127.0.0.1:${address.port}`);
});
