// Bounded input: a limit per input (64 MiB, CDK8S_NODE_AGENTS_MAX_INPUT), devices stop at it, a FIFO without a
// writer does not hang.

import { execFileSync, spawn } from 'child_process';
import * as path from 'path';
import { DEFAULT_MAX_INPUT_BYTES, maxInputBytes, MAX_INPUT_ENV, readInputText } from '../../src/review/_input-file';
import { runCli, tempFiles } from '../cli/run-cli';

const t = tempFiles();
const NODE = 'apiVersion: v1\nkind: Node\nmetadata: {name: a}\n';

function withLimit<T>(value: string | undefined, f: () => T): T {
  const before = process.env[MAX_INPUT_ENV];
  if (value === undefined) delete process.env[MAX_INPUT_ENV];
  else process.env[MAX_INPUT_ENV] = value;
  try {
    return f();
  } finally {
    if (before === undefined) delete process.env[MAX_INPUT_ENV];
    else process.env[MAX_INPUT_ENV] = before;
  }
}

test('the limit is 64 MiB unless CDK8S_NODE_AGENTS_MAX_INPUT sets it, in bytes or KiB/MiB/GiB', () => {
  expect(DEFAULT_MAX_INPUT_BYTES).toBe(64 * 1024 * 1024);
  expect(maxInputBytes({})).toBe(DEFAULT_MAX_INPUT_BYTES);
  expect(maxInputBytes({ [MAX_INPUT_ENV]: '1000' })).toBe(1000);
  expect(maxInputBytes({ [MAX_INPUT_ENV]: '256MiB' })).toBe(256 * 1024 * 1024);
  expect(maxInputBytes({ [MAX_INPUT_ENV]: '2 KiB' })).toBe(2048);
  for (const bad of ['0', 'lots', '1.5MiB', '-1', '64MB']) {
    expect(() => maxInputBytes({ [MAX_INPUT_ENV]: bad })).toThrow(`${MAX_INPUT_ENV}=${JSON.stringify(bad)} is not a size: write bytes or a number with KiB, MiB or GiB`);
  }
});

test('review /dev/zero stops at the limit with one error line', async () => {
  const r = await runCli('review', '/dev/zero');
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('error: /dev/zero: more than 64 MiB, the most read from one input (it is a device, not a file)\n');
});

test('a file over the limit is refused, naming the variable that raises it; at the limit it is read', async () => {
  const file = t.write('nodes.yaml', NODE.repeat(1).padEnd(2048, '#'));
  const over = await withLimit('1KiB', () => runCli('review', file));
  expect(over.code).toBe(2);
  expect(over.stderr).toBe(`error: ${file}: more than 1 KiB, the most read from one input (set ${MAX_INPUT_ENV}, e.g. ${MAX_INPUT_ENV}=256MiB, to read more)\n`);
  expect(withLimit('2048', () => readInputText(file))).toHaveLength(2048);
  const bad = await withLimit('lots', () => runCli('review', file));
  expect(bad.stderr).toBe(`error: ${file}: ${MAX_INPUT_ENV}="lots" is not a size: write bytes or a number with KiB, MiB or GiB, e.g. ${MAX_INPUT_ENV}=256MiB\n`);
});

test('a FIFO without a writer is refused at once instead of waiting forever', async () => {
  const fifo = path.join(t.dir, 'no-writer.fifo');
  execFileSync('mkfifo', [fifo]);
  const started = Date.now();
  const r = await runCli('review', fifo);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(`error: ${fifo}: is a FIFO or socket with nothing written to it (or no writer yet): start its writer first, or pass a file\n`);
  expect(Date.now() - started).toBeLessThan(5000);
});

test('a FIFO whose writer is there (as `review <(helm template ...)` passes one) is read to its end', async () => {
  const fifo = path.join(t.dir, 'writer.fifo');
  execFileSync('mkfifo', [fifo]);
  // the writer opens the FIFO first (blocking until a reader comes), then writes slowly
  const writer = spawn('sh', ['-c', 'exec 3>"$1"; sleep 0.3; printf \'%s\' "$2" >&3', 'sh', fifo, NODE], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 200));
  try {
    const r = await runCli('coverage', '--json', '--nodes', fifo, t.write('empty-app.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n'));
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).nodeCount).toBe(1);
  } finally {
    writer.kill();
  }
});
