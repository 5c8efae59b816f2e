// Reading one input file as text, bounded: the bytes of a manifest, nodes file or snapshot for the one reader of
// manifests (src/model/_manifest-reader.ts). Used by the CLI and the validation plugin.
//
// - At most a limit of bytes per input (64 MiB unless CDK8S_NODE_AGENTS_MAX_INPUT says otherwise), so `/dev/zero` or a
//   runaway pipe stops with an error instead of filling memory. (The largest corpus manifest is about 1 MiB; a
//   `kubectl get -o yaml` of 5,000 nodes about 60 MiB.)
// - A FIFO or socket is opened without blocking: one without a writer reads as empty at once (and is refused as
//   such) instead of waiting forever; one with a writer (`review <(helm template ...)`) is read until the writer ends.
// - UTF-8 (a BOM is dropped) or UTF-16 with its BOM, as Windows PowerShell's `>` writes; no C0 control character but
//   tab, line feed and carriage return.

import { constants as bufferConstants } from 'buffer';
import * as fs from 'fs';
import { ManifestSyntaxError, readManifestStream } from '../model/_manifest-reader';

/** the default most bytes read from one input. */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;
/** the environment variable that sets another limit: bytes, or a number with KiB, MiB or GiB. */
export const MAX_INPUT_ENV = 'CDK8S_NODE_AGENTS_MAX_INPUT';

/** a file that cannot be read as text; the message does not name the file (the caller does). */
export class InputFileError extends Error {
  constructor(message: string, public readonly line?: number, public readonly column?: number) {
    super(message);
  }
}

/** the limit in force: CDK8S_NODE_AGENTS_MAX_INPUT, or 64 MiB. @throws InputFileError when the variable is malformed */
export function maxInputBytes(env: { [name: string]: string | undefined } = process.env): number {
  const raw = env[MAX_INPUT_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_MAX_INPUT_BYTES;
  const m = /^\s*(\d+)\s*(B|KiB|MiB|GiB)?\s*$/.exec(raw);
  const unit = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3 };
  const bytes = m ? Number(m[1]) * unit[(m[2] ?? 'B') as keyof typeof unit] : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new InputFileError(`${MAX_INPUT_ENV}=${JSON.stringify(raw)} is not a size: write bytes or a number with KiB, MiB or GiB, e.g. ${MAX_INPUT_ENV}=256MiB`);
  }
  return bytes;
}

function showSize(bytes: number): string {
  return bytes % (1024 ** 2) === 0 ? `${bytes / 1024 ** 2} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** the bytes of a file, at most `limit`. @throws InputFileError */
export function readInputBytes(file: string, limit: number = maxInputBytes()): Buffer {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    throw new InputFileError(`cannot read file: ${describeIoError(e)}`);
  }
  if (stat.isDirectory()) throw new InputFileError('cannot read file: is a directory, not a file');
  const pipe = stat.isFIFO() || stat.isSocket();
  let fd: number;
  try {
    // eslint-disable-next-line no-bitwise
    fd = fs.openSync(file, fs.constants.O_RDONLY | (pipe ? fs.constants.O_NONBLOCK : 0));
  } catch (e) {
    throw new InputFileError(`cannot read file: ${describeIoError(e)}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    const buffer = Buffer.alloc(Math.min(limit + 1, 1024 * 1024));
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, limit + 1 - total), null);
      } catch (e: any) {
        if (e?.code === 'EAGAIN') {
          // a pipe whose writer has not written yet: wait for it (it is there, or the read would have ended)
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
          continue;
        }
        throw new InputFileError(`cannot read file: ${describeIoError(e)}`);
      }
      if (n === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
      total += n;
      if (total > limit) {
        throw new InputFileError(`more than ${showSize(limit)}, the most read from one input (${stat.isCharacterDevice() || stat.isBlockDevice() ? 'it is a device, not a file' : 'set ' +
          `${MAX_INPUT_ENV}, e.g. ${MAX_INPUT_ENV}=256MiB, to read more`})`);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  if (total === 0 && pipe) throw new InputFileError('is a FIFO or socket with nothing written to it (or no writer yet): start its writer first, or pass a file');
  return Buffer.concat(chunks, total);
}

/** a file's text: UTF-8 (a BOM is dropped) or UTF-16 with its BOM, at most `limit` bytes. @throws InputFileError */
export function readInputText(file: string, limit?: number): string {
  const bytes = readInputBytes(file, limit);
  if (bytes.length > bufferConstants.MAX_STRING_LENGTH) {
    throw new InputFileError(`${bytes.length} bytes is more than the ${bufferConstants.MAX_STRING_LENGTH} characters a string holds; split it`);
  }
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const at = encoding === 'utf-8' ? firstInvalidUtf8(bytes) : undefined;
    const where = at === undefined ? '' : ` (the byte at offset ${at} of ${bytes.length} is 0x${bytes[at].toString(16).padStart(2, '0')})`;
    throw new InputFileError(`not a YAML or JSON text file: it is not ${encoding === 'utf-8' ? 'UTF-8' : encoding.toUpperCase()} text${where}; pass manifests (YAML or JSON)`);
  }
  // YAML and JSON allow tab, line feed and carriage return, no other C0 control character
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.exec(text);
  if (control) {
    const before = text.slice(0, control.index);
    const line = before.split('\n').length;
    const col = control.index - before.lastIndexOf('\n');
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    throw new InputFileError(`not a YAML or JSON text file: control character ${code} (YAML and JSON allow only tab, line feed and carriage return); pass manifests (YAML or JSON)`, line, col);
  }
  return text;
}

/** the offset of the first byte that is not valid UTF-8, for the message. */
function firstInvalidUtf8(bytes: Buffer): number | undefined {
  const lenient = new TextDecoder('utf-8').decode(bytes);
  const at = lenient.indexOf('\ufffd');
  if (at < 0) return undefined;
  return Buffer.byteLength(lenient.slice(0, at), 'utf-8');
}

function describeIoError(e: any): string {
  switch (e?.code) {
    case 'ENOENT': return 'no such file';
    case 'EISDIR': return 'is a directory, not a file';
    case 'EACCES': return 'permission denied';
    case 'ENOTDIR': return 'a part of the path is not a directory';
    default: {
      const message = String(e?.message ?? e);
      return (message[0]?.toLowerCase() ?? '') + message.slice(1, 160);
    }
  }
}

/**
 * Every object of a manifest file, read as kubectl reads it (a List's items in its place, taking the list's apiVersion
 * and kind when they have neither), for the validation plugin; the CLI reads with more detail (src/cli/_manifests.ts).
 * @throws Error naming the file and place
 */
export function readManifestObjects(file: string): any[] {
  try {
    const out: any[] = [];
    const add = (value: any): void => {
      if (typeof value !== 'object' || value === null) return;
      if (Array.isArray(value)) return value.forEach(add);
      if (!Array.isArray(value.items)) return void out.push(value);
      const kind = typeof value.kind === 'string' ? value.kind : '';
      for (const item of value.items) {
        const bare = typeof item === 'object' && item !== null && !item.apiVersion && !item.kind;
        add(bare ? { ...item, apiVersion: value.apiVersion, kind: kind.endsWith('List') ? kind.slice(0, -4) : kind } : item);
      }
    };
    for (const doc of readManifestStream(readInputText(file))) add(doc.value);
    return out;
  } catch (e) {
    if (e instanceof InputFileError) throw new Error(`${file}${e.line === undefined ? '' : `:${e.line}:${e.column}`}: ${e.message}`);
    if (e instanceof ManifestSyntaxError) throw new Error(`${file}:${e.message}`);
    throw e;
  }
}
