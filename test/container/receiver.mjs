// A webhook receiver for test/container/run.sh: answers 200 to every POST and counts deliveries
// by their `webhook-id`; GET /counts answers {id: times received}. Usage: node receiver.mjs PORT
import { createServer } from 'node:http';
import process from 'node:process';

const counts = {};
createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/counts') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
    return;
  }
  req.resume();
  req.on('end', () => {
    const id = req.headers['webhook-id'];
    if (typeof id === 'string') counts[id] = (counts[id] ?? 0) + 1;
    res.writeHead(200).end('ok');
  });
}).listen(Number(process.argv[2]), '127.0.0.1');
