// Shared by the model tests: the real parser (loaded once), fixture paths, and an in-memory file system.
import path from 'node:path';
import { extractTerraformFile, loadTerraformParser } from '../../server/src/model';
import type { ModelFileSystem, TerraformParser } from '../../server/src/model';

export const fixturesRoot = path.resolve(__dirname, '../fixtures/model');
export const demoAppFolder = path.resolve(__dirname, '../fixtures/demo-app');

export function fixture(...segments: string[]): string {
  return path.join(fixturesRoot, ...segments);
}

export function testParser(): Promise<TerraformParser> {
  return loadTerraformParser();
}

/** What a fresh parse of `text` gives for `file`: what every incremental result is compared with. */
export function freshTerraformFacts(parser: TerraformParser, file: string, text: string) {
  const tree = parser.parse(text);
  try {
    return extractTerraformFile(tree, file);
  } finally {
    tree.delete();
  }
}

/**
 * Files held in a map, keyed by absolute path. `gate` lets a test hold a read open until it decides, to
 * reproduce races between disk reads and editor changes without timers.
 */
export class MemoryFileSystem implements ModelFileSystem {
  readonly files = new Map<string, string>();
  readonly failing = new Map<string, Error>();
  reads = 0;
  private gates = new Map<string, Promise<void>>();

  constructor(files: Record<string, string> = {}) {
    for (const [file, text] of Object.entries(files)) this.files.set(path.resolve(file), text);
  }

  write(file: string, text: string): void {
    this.files.set(path.resolve(file), text);
  }

  remove(file: string): void {
    this.files.delete(path.resolve(file));
  }

  /** The next reads of `file` wait until the returned function is called (then see the file as it is then). */
  hold(file: string): () => void {
    let release = () => {};
    this.gates.set(path.resolve(file), new Promise<void>((resolve) => (release = resolve)));
    return () => release();
  }

  async readFile(file: string): Promise<string | undefined> {
    this.reads++;
    const gate = this.gates.get(file);
    if (gate) {
      this.gates.delete(file);
      await gate;
    }
    const failure = this.failing.get(file);
    if (failure) throw failure;
    return this.files.get(file);
  }

  async listFiles(folder: string): Promise<string[]> {
    const prefix = path.resolve(folder) + path.sep;
    return [...this.files.keys()].filter((file) => file.startsWith(prefix) && !file.slice(prefix.length).includes(path.sep)).map((file) => file.slice(prefix.length));
  }
}
