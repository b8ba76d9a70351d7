// The document pipeline, from the editor's text to the code models the features read:
//   sync.ts            latest text at once for requests; the model follows a moment later, one batch per burst
//   moduleFolders.ts   module folders indexed in the background, one at a time, the editor's folders first;
//                      their files parsed by ../indexing workers (every core, this thread free for requests)
//   ../model           incremental parse (tree.edit + old tree) and re-extraction of the edited blocks only
//   largeFiles.ts      files over hcpTerraform.analysis.maxFileSizeMB edited as text, with one notice
// Diagnostics are published by ../features (debounced per folder, see diagnosticsPublisher.ts).
import type { Connection } from 'vscode-languageserver';
import { defaultMaxFileSize } from '../config/settings';
import type { TerraformParser } from '../model';
import { IndexPool } from '../indexing/indexPool';
import { largeFileNotice } from './largeFiles';
import { ModuleFolders } from './moduleFolders';
import { registerDocumentSync } from './sync';
import type { OpenDocumentView } from './sync';

export interface DocumentPipelineOptions {
  parser: Promise<TerraformParser>;
  environment: Readonly<Record<string, string | undefined>>;
  log(message: string): void;
}

export interface DocumentPipeline {
  folders: ModuleFolders;
  /** Registers text sync and watched files; `onEdit` hears of each file the user changed. Call once, before listen. */
  registerSync(onEdit?: (file: string) => void): OpenDocumentView;
  /** The size limit from the settings (undefined: the default, 2 MB). */
  setMaxFileSize(maxFileSize: number | undefined): void;
}

export function createDocumentPipeline(connection: Connection, options: DocumentPipelineOptions): DocumentPipeline {
  const folders = new ModuleFolders({ ...options, maxFileSize: defaultMaxFileSize, onLargeFile: largeFileNotice(connection, options.log), indexPool: new IndexPool({ log: options.log }) });
  return {
    folders,
    registerSync: (onEdit) => registerDocumentSync(connection, folders, onEdit),
    setMaxFileSize: (maxFileSize) => folders.setMaxFileSize(maxFileSize ?? defaultMaxFileSize),
  };
}
