import autocannon from 'autocannon';
const [url, method] = [process.argv[2]!, process.argv[3] ?? 'GET'];
const r = await autocannon({ url, connections: 50, duration: 4, method: method as 'GET' });
console.log(method, r.requests.average);
