// Command-line parsing for main.ts, separate so it can be tested without starting anything.
import type { EmulatorOptions } from './index';

export interface CliOptions {
  emulator: EmulatorOptions;
  infoFile?: string;
  fixedTokens: boolean;
}

export const usage = `Usage: node dist/emulator.js [--port N] [--host H] [--seed demo|empty] [--speed F]
       [--edition hosted|enterprise] [--info FILE] [--fixed-tokens] [--tls] [--public-url URL]`;

/** Parses argv (without node and script); throws an Error with the usage text on anything it does not know. */
export function parseCli(argv: string[]): CliOptions {
  const result: CliOptions = { emulator: {}, fixedTokens: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new Error(`${flag} needs a value.\n${usage}`);
      return next;
    };
    switch (flag) {
      case '--port': {
        const raw = value();
        if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw new Error(`--port must be 0-65535 (got ${raw}).`);
        result.emulator.port = Number(raw);
        break;
      }
      case '--host':
        result.emulator.host = value();
        break;
      case '--seed': {
        const seed = value();
        if (seed !== 'demo' && seed !== 'empty') throw new Error(`--seed must be demo or empty (got ${seed}).`);
        result.emulator.seed = seed;
        break;
      }
      case '--speed': {
        const raw = value();
        const speed = Number(raw);
        if (!Number.isFinite(speed) || speed <= 0) throw new Error(`--speed must be a positive number (got ${raw}).`);
        result.emulator.speed = speed;
        break;
      }
      case '--edition': {
        const edition = value();
        if (edition !== 'hosted' && edition !== 'enterprise') throw new Error(`--edition must be hosted or enterprise (got ${edition}).`);
        result.emulator.edition = edition;
        break;
      }
      case '--info':
        result.infoFile = value();
        break;
      case '--fixed-tokens':
        result.fixedTokens = true;
        break;
      case '--tls':
        result.emulator.tls = true;
        break;
      case '--public-url': {
        const raw = value();
        if (!/^https?:\/\/[^\s/]+\/?$/.test(raw)) throw new Error(`--public-url must be an origin such as https://127.0.0.1:8443 (got ${raw}).`);
        result.emulator.publicUrl = raw;
        break;
      }
      case '--help':
      case '-h':
        throw new Error(usage);
      default:
        throw new Error(`Unknown option ${flag}.\n${usage}`);
    }
  }
  return result;
}
