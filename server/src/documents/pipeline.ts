// The document pipeline, from the editor's text to the code models the features read:
//   sync.ts            latest text at once for requests; the model follows a moment later, one batch per burst
//   moduleFolders.ts   module folders indexed in the background, one at a time, the editor's folders first;
//                      their files parsed by ../indexing workers (every core, this thread free for requests)
//   ../model           incremental parse (tree.edit + old tree) and re-extraction of the edited blocks only
//   largeFiles.ts      files over hcpTerraform.analysis.maxFileSizeMB edited as text, with one notice
//   parserRecycling.ts the parser's memory given back once the large trees that grew it are gone
// Diagnostics are published by ../features (debounced per folder, see diagnosticsPublisher.ts).
import type { Connection } from 'vscode-languageserver';
import { defaultMaxFileSize } from '../config/settings';
import type { TerraformParser } from '../model';
import { IndexPool } from '../indexing/indexPool';
import { largeFileNotice } from './largeFiles';
import { ModuleFolders } from './moduleFolders';
import { ParserRecycling } from './parserRecycling';
import { registerDocumentSync } from './sync';
import type { DocumentSync } from './sync';

export interface DocumentPipelineOptions {
  parser: Promise<TerraformParser>;
  environment: Readonly<Record<string, string | undefined>>;
  log(message: string): void;
}

export interface DocumentPipeline {
  folders: ModuleFolders;
  /** Registers text sync and watched files; `onEdit` hears of each file the user changed. Call once, before listen. */
  registerSync(onEdit?: (file: string) => void): DocumentSync;
  /** The size limit from the settings (undefined: the default, 2 MB). */
  setMaxFileSize(maxFileSize: number | undefined): void;
  /** Stops the parser-memory checks (the folders are disposed by their owner). */
  dispose(): void;
}

export function createDocumentPipeline(connection: Connection, options: DocumentPipelineOptions): DocumentPipeline {
  const folders = new ModuleFolders({ ...options, maxFileSize: defaultMaxFileSize, onLargeFile: largeFileNotice(connection, options.log), indexPool: new IndexPool({ log: options.log }) });
  const recycling = new ParserRecycling({ parser: options.parser, holders: () => folders.all(), log: options.log });
  const removals = folders.onDidChange((event) => {
    if (event.kind === 'removed') recycling.checkSoon();
  });
  return {
    folders,
    registerSync: (onEdit) =>
      registerDocumentSync(connection, folders, {
        onEdit(file) {
          recycling.noteEdit();
          onEdit?.(file);
        },
        onClosed: () => recycling.checkSoon(),
      }),
    setMaxFileSize: (maxFileSize) => folders.setMaxFileSize(maxFileSize ?? defaultMaxFileSize),
    dispose() {
      removals.dispose();
      recycling.dispose();
    },
  };
}
