import * as fs from 'fs';
import { parseAllDocuments } from 'yaml';
import { SecurityReview } from '../../src/review';
const docs = parseAllDocuments(fs.readFileSync('examples/review/chart-shaped.yaml', 'utf-8')).map((d) => d.toJS());
for (const n of [100, 200, 400]) {
  const manifests: any[] = [];
  for (let i = 0; i < n; i++) for (const d of docs) { const c = JSON.parse(JSON.stringify(d)); if (c.metadata) c.metadata.name = `${c.metadata.name}-${i}`; manifests.push(c); }
  const t = Date.now();
  const r = SecurityReview.review(manifests);
  console.log(n, 'workloads', r.workloads.length, 'ms', Date.now() - t);
}
