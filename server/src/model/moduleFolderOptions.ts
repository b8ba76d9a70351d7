// What a ModuleFolderModel is made from (its options) and what it tells (its change events, the files it could not
// read): the model's contract with the LSP layer, apart from the model itself so that it can be read, and imported,
// without the model's workings.
import type { FileExtraction } from './fileExtraction';
import type { ModelFileKind } from './fileKinds';
import type { ModelFileSystem } from './fileSystem';
import type { ServiceLinkOverride } from './serviceLink';
import type { TerraformParser } from './terraformParser';

export interface ModuleFolderModelOptions {
  /** Absolute path of the module folder. */
  folder: string;
  parser: TerraformParser;
  fileSystem?: ModelFileSystem;
  /** The environment Terraform would run with (TF_CLOUD_*, TF_WORKSPACE). Not read from process.env implicitly. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Editor setting that wins over the code and the environment. */
  override?: ServiceLinkOverride;
  /** Files already open in the editor (path → text): read from here, not from disk, so each is parsed once. */
  openDocuments?: ReadonlyMap<string, string>;
  /**
   * Files longer than this many characters are not parsed: they contribute nothing and keep no syntax tree (a
   * 4 MB file's tree costs hundreds of MB of parser memory). `onLargeFile` hears about each one.
   */
  maxFileSize?: number;
  onLargeFile?(file: string, size: number): void;
  /**
   * Extracts a file read from disk elsewhere (an indexing worker), or returns undefined to leave it to this thread.
   * The promise rejects when the worker failed (this thread parses the file instead), and resolves undefined when
   * the file is wanted no more (the workers were stopped with the server): it is then left out, not parsed here.
   */
  offload?(file: string, kind: ModelFileKind, text: string): Promise<FileExtraction | undefined> | undefined;
  /** Parse one file read from disk per turn of the event loop, so requests go between them (the server does). */
  yieldBetweenFiles?: boolean;
  /** Loaded by the background indexer: its first load's files take their turns after those of folders an editor waits for. */
  background?: boolean;
  /**
   * An opened document of at least this many characters is not parsed by openDocument, which says 'deferred': the
   * caller parses it in slices (parsePendingInSlices), and the facts the index has for the file stay until then.
   */
  parseOpenedInSlicesFrom?: number;
  /** Open documents of at least this many characters are read region by region while broken (OpenDocument's `isolateFrom`). */
  isolateBrokenBlocksFrom?: number;
  /** True once the server is stopping: a model still loading then reads and parses nothing more. */
  stopped?(): boolean;
}

export interface ModelChange {
  /** Absolute paths whose contribution changed (or `.terraform/environment`). */
  files: string[];
}

/** A file the model could not read (permissions, a folder where a file was expected...). */
export interface FileReadProblem {
  file: string;
  message: string;
}
