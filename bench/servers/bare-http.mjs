import http from 'node:http';

/** The floor: Node's own HTTP server answering the same 302 a Snip redirect answers. */
const server = http.createServer((_request, response) => {
  response.writeHead(302, { location: 'https://example.com/landing?utm_source=bench' });
  response.end();
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
