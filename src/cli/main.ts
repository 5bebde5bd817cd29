/**
 * `slipstream`: run a Slipstream service (serve, stop), print to, wait for, fetch and check
 * documents, for scripts and CI jobs. Settings: SLIPSTREAM_URL, SLIPSTREAM_TOKEN (the workspace
 * token; the CLI logs in itself). Exit codes: 0 found / done / passed, 1 timed out or a check
 * failed, 2 error.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError, EXIT, login, readCliSettings, type Session } from './client.ts';
import { compareCommand } from './compare.ts';
import { expectCommand } from './expect.ts';
import { DEFAULT_STATE_DIR, serveCommand, stopCommand } from './serve.ts';
import { FORMATS, loginCommand, printCommand, printersCommand, renderCommand, tailCommand, waitCommand, type Format, type Io } from './commands.ts';

const COMMON = `
Settings (environment):
  SLIPSTREAM_URL     the service, e.g. http://localhost:8787   (or --url)
  SLIPSTREAM_TOKEN   the workspace token                        (or --token)

Exit codes: 0 found / done / passed, 1 timed out or a check failed, 2 error.`;

type Options = NonNullable<ParseArgsConfig['options']>;
const GLOBAL: Options = {
  url: { type: 'string' },
  token: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

type Values = Record<string, string | boolean | string[] | undefined>;

type Command = { usage: string; summary: string; options: Options } & (
  /** Runs without the service's URL and token (serve, stop). */
  | { local: true; run(io: Io, values: Values): Promise<number> }
  | { local?: false; run(session: Session, io: Io, values: Values, positionals: string[]): Promise<number> }
);

function percent(value: Values[string], fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 100) throw new CliError(`--tolerance wants a percentage (0 to 100), not "${value}"`);
  return n;
}

function port(value: Values[string], fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new CliError(`--port wants a TCP port (1 to 65535), not "${value}"`);
  return n;
}

const STATE_OPTION: Options = { state: { type: 'string' } };

function seconds(value: Values[string], fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new CliError(`--timeout wants seconds (a number >= 0), not "${value}"`);
  return n;
}

function format(value: Values[string], allowed: readonly string[] = FORMATS): Format | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) throw new CliError(`--format must be one of ${allowed.join(', ')}`);
  return value as Format;
}

function required(value: Values[string], name: string): string {
  if (typeof value !== 'string' || !value) throw new CliError(`${name} is required (see --help)`);
  return value;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: `slipstream serve [--config printers.json] [--port N] [--host ADDRESS] [--state DIR] [--detach] [--timeout SECONDS]`,
    summary: `Run the whole service (Worker, storage, TCP bridge) with its state in DIR (default ./${DEFAULT_STATE_DIR}); --detach returns once it is ready and prints its URL`,
    options: { config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, detach: { type: 'boolean' }, timeout: { type: 'string' }, ...STATE_OPTION },
    local: true,
    run: (io, v) => serveCommand(io, {
      config: v.config as string | undefined, port: port(v.port, 8787), host: (v.host as string | undefined) ?? '127.0.0.1',
      stateDir: (v.state as string | undefined) ?? DEFAULT_STATE_DIR, detach: v.detach === true, readyTimeoutSeconds: seconds(v.timeout, 120),
    }),
  },
  stop: {
    usage: 'slipstream stop [--state DIR]',
    summary: 'Stop the service `serve --detach` started from DIR (open jobs are finished first)',
    options: STATE_OPTION,
    local: true,
    run: (io, v) => stopCommand(io, { stateDir: (v.state as string | undefined) ?? DEFAULT_STATE_DIR }),
  },
  expect: {
    usage: 'slipstream expect --printer ID|NAME [--text TEXT]... [--timeout SECONDS] [--after DOCUMENT_ID] [--junit FILE] [--state DIR]',
    summary: "Take the printer's next document (in print order, each once; waits for it) and check it printed each --text; print its id",
    options: { printer: { type: 'string', short: 'p' }, text: { type: 'string', multiple: true }, timeout: { type: 'string' }, after: { type: 'string' }, junit: { type: 'string' }, ...STATE_OPTION },
    run: (s, io, v) => expectCommand(s, io, {
      printer: required(v.printer, '--printer'), texts: (v.text as string[] | undefined) ?? [], timeoutSeconds: seconds(v.timeout, 30),
      after: v.after as string | undefined, junit: v.junit as string | undefined, stateDir: (v.state as string | undefined) ?? DEFAULT_STATE_DIR,
    }),
  },
  compare: {
    usage: 'slipstream compare DOCUMENT_ID --golden FILE.png [--tolerance PERCENT] [--diff FILE.png] [--update] [--junit FILE] [--printer ID|NAME] [--canvas N]',
    summary: 'Compare the printout with a golden picture (lined up within 4 dots; PERCENT of the inked dots may differ, default 0), write a diff picture (red: missing, blue: extra); --update records the golden',
    options: { golden: { type: 'string' }, tolerance: { type: 'string' }, diff: { type: 'string' }, update: { type: 'boolean' }, junit: { type: 'string' }, printer: { type: 'string', short: 'p' }, canvas: { type: 'string' } },
    run: (s, io, v, pos) => {
      if (pos.length !== 1) throw new CliError('compare wants exactly one DOCUMENT_ID (see --help)');
      const canvas = v.canvas === undefined ? undefined : Number(v.canvas);
      if (canvas !== undefined && !Number.isInteger(canvas)) throw new CliError('--canvas wants a 0-based canvas number');
      return compareCommand(s, io, {
        documentId: pos[0], golden: required(v.golden, '--golden'), tolerance: percent(v.tolerance, 0), update: v.update === true,
        diff: v.diff as string | undefined, junit: v.junit as string | undefined, printer: v.printer as string | undefined, canvas,
      });
    },
  },
  login: {
    usage: 'slipstream login',
    summary: 'Check the settings: log in with SLIPSTREAM_TOKEN and print the access token (for curl)',
    options: {},
    run: (s, io) => loginCommand(s, io),
  },
  printers: {
    usage: 'slipstream printers [--json]',
    summary: "List the workspace's printers: id, protocol, TCP port, name",
    options: { json: { type: 'boolean' } },
    run: (s, io, v) => printersCommand(s, io, { json: v.json === true }),
  },
  print: {
    usage: 'slipstream print FILE --printer ID|NAME [--tcp] [--timeout SECONDS]',
    summary: "Print FILE's bytes (through the API, or --tcp to the printer's port), wait for the document, print its id",
    options: { printer: { type: 'string', short: 'p' }, tcp: { type: 'boolean' }, timeout: { type: 'string' } },
    run: (s, io, v, pos) => {
      if (pos.length !== 1) throw new CliError('print wants exactly one FILE (see --help)');
      return printCommand(s, io, { file: pos[0], printer: required(v.printer, '--printer'), tcp: v.tcp === true, timeoutSeconds: seconds(v.timeout, 30) });
    },
  },
  wait: {
    usage: 'slipstream wait --printer ID|NAME [--after DOCUMENT_ID] [--timeout SECONDS] [--format json|text|png|pdf|raw] [-o FILE]',
    summary: 'Wait for the next document (after --after, else after now); print its id, or the document in --format',
    options: { printer: { type: 'string', short: 'p' }, after: { type: 'string' }, timeout: { type: 'string' }, format: { type: 'string', short: 'f' }, output: { type: 'string', short: 'o' } },
    run: (s, io, v) =>
      waitCommand(s, io, {
        printer: required(v.printer, '--printer'), after: v.after as string | undefined, timeoutSeconds: seconds(v.timeout, 60),
        format: format(v.format), output: v.output as string | undefined,
      }),
  },
  render: {
    usage: 'slipstream render DOCUMENT_ID --format png|pdf|text|raw|json [-o FILE] [--printer ID|NAME] [--canvas N]',
    summary: 'Fetch a document as PNG, PDF, text, the raw bytes received, or JSON (binary forms need -o FILE)',
    options: { format: { type: 'string', short: 'f' }, output: { type: 'string', short: 'o' }, printer: { type: 'string', short: 'p' }, canvas: { type: 'string' } },
    run: (s, io, v, pos) => {
      if (pos.length !== 1) throw new CliError('render wants exactly one DOCUMENT_ID (see --help)');
      const canvas = v.canvas === undefined ? undefined : Number(v.canvas);
      if (canvas !== undefined && !Number.isInteger(canvas)) throw new CliError('--canvas wants a 0-based canvas number');
      return renderCommand(s, io, { documentId: pos[0], format: format(required(v.format, '--format'))!, output: v.output as string | undefined, printer: v.printer as string | undefined, canvas });
    },
  },
  tail: {
    usage: 'slipstream tail --printer ID|NAME [--format summary|json|text] [--count N]',
    summary: 'Follow a printer live: one line per document as it is printed (Ctrl+C to stop)',
    options: { printer: { type: 'string', short: 'p' }, format: { type: 'string', short: 'f' }, count: { type: 'string' } },
    run: (s, io, v) => {
      const f = (v.format ?? 'summary') as string;
      if (!['summary', 'json', 'text'].includes(f)) throw new CliError('--format must be one of summary, json, text');
      const count = v.count === undefined ? undefined : Number(v.count);
      const ctl = new AbortController();
      process.once('SIGINT', () => ctl.abort());
      return tailCommand(s, io, { printer: required(v.printer, '--printer'), format: f as 'summary' | 'json' | 'text', count, signal: ctl.signal });
    },
  },
};

function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((k) => k.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `Usage: slipstream <command> [options]   (slipstream <command> --help for its options)\n\nCommands:\n${lines.join('\n')}\n${COMMON}\n`;
}

function commandHelp(c: Command): string {
  return `Usage: ${c.usage} [--url URL] [--token TOKEN]\n\n${c.summary}.\n${COMMON}\n`;
}

export async function main(argv: string[], io: Io, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(mainHelp());
    return name ? EXIT.found : EXIT.error;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`Unknown command "${name}".\n\n${mainHelp()}`);
    return EXIT.error;
  }
  try {
    const { values, positionals } = parseArgs({ args: rest, options: { ...GLOBAL, ...command.options }, allowPositionals: true, strict: true });
    if (values.help) {
      io.stdout(commandHelp(command));
      return EXIT.found;
    }
    if (command.local) return await command.run(io, values as Values);
    const session = await login(readCliSettings(env, { url: values.url as string | undefined, token: values.token as string | undefined }));
    return await command.run(session, io, values as Values, positionals);
  } catch (e) {
    const message = e instanceof CliError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? (e as Error).message : `Unexpected error: ${(e as Error).stack ?? e}`;
    io.stderr(`slipstream ${name}: ${message}\n`);
    return EXIT.error;
  }
}
