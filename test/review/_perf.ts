import * as fs from 'fs';
import { parseAllDocuments } from 'yaml';
import { SecurityReview } from '../../src/review';
const docs = parseAllDocuments(fs.readFileSync('examples/review/chart-shaped.yaml', 'utf-8')).map((d) => d.toJS());
const manifests: any[] = [];
for (let i = 0; i < 5000; i++) for (const d of docs) { const c = JSON.parse(JSON.stringify(d)); if (c.metadata) c.metadata.name = `${c.metadata.name}-${i}`; manifests.push(c); }
const t = Date.now();
const r = SecurityReview.review(manifests);
console.log('workloads', r.workloads.length, 'ms', Date.now() - t);
const t2 = Date.now();
SecurityReview.toJson(r); SecurityReview.toMarkdown(r);
console.log('render ms', Date.now() - t2);
