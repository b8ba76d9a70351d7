// Entry point of dist/server.js. The indexing worker starts first, so that its boot runs on the other core while
// this thread loads the server's code (workerStart.ts); that code is therefore required here, after the start, not
// imported (an import would load it before anything in this file runs).
import { startIndexWorkerEarly } from './indexing/workerStart';

startIndexWorkerEarly();
// eslint-disable-next-line @typescript-eslint/no-require-imports
(require('./startFromCommandLine') as typeof import('./startFromCommandLine')).startFromCommandLine();
