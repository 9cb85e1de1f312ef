// Stress driver: one process appending `count` progress events through the bus
// library (the same code path as the `progress` tool, without 1,000 process starts).
import { appendProgress } from '../../bus/progress';

const [bus, worker, count] = process.argv.slice(2);
for (let i = 0; i < Number(count); i++) appendProgress(bus!, `W-${worker}`, `worker ${worker} step ${i} of ${count}`);
