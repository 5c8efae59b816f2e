// Helpers for the CLI tests: run main() in-process with captured output, and write temp files.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/cli/main';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(...argv: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => { stdout += s; return true; } },
    stderr: { write: (s: string) => { stderr += s; return true; } },
  });
  return { code, stdout, stderr };
}

/** a fresh temporary directory with a writer for files in it. */
export function tempFiles(): { dir: string; write(name: string, content: string): string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-node-agents-cli-'));
  return {
    dir,
    write(name: string, content: string): string {
      const file = path.join(dir, name);
      fs.writeFileSync(file, content);
      return file;
    },
  };
}

/** the single `error: ...` line a failing command prints. */
export function expectOneErrorLine(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^error: [^\n]*\n$/);
  expect(result.stderr).toMatch(pattern);
}
