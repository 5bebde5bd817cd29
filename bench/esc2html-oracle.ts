/**
 * esc2html (receipt-print-hq/escpos-tools, PHP, MIT), the peer the document bench compares
 * with, run the way it is fair to compare: one PHP process that converts the same bytes in a
 * loop and times itself with hrtime, asked for one round at a time while the Node side waits
 * (rounds alternate; neither side runs while the other is timed). Both sides are warm, long
 * running processes, as Slipstream's Worker is; esc2html's own per-job cost of starting PHP
 * (~15 ms, more than the conversion) is left out, which favours esc2html.
 *
 * Neither PHP nor its sources are part of this project or its CI. Where they come from:
 * - `php` 8 with the intl extension (escpos-php's code pages need it):
 *   `apt-get install php-cli php-intl`; another binary through `PHP=/path/to/php`.
 * - escpos-tools and escpos-php (mike42, whose Printer writes the barcode example's bytes):
 *   any git clone or mirror of https://github.com/receipt-print-hq/escpos-tools and
 *   https://github.com/mike42/escpos-php, named by ESCPOS_TOOLS_DIR and ESCPOS_PHP_DIR
 *   (defaults: this machine's mirrors under /work/.mirror). Their HEAD is extracted with
 *   `git archive` under node_modules/.cache/slipstream-bench-esc2html; composer is not used:
 *   a PSR-4 autoloader for the two namespaces is written beside them.
 *
 * esc2html.php is a script (top-level code, then functions); the loop runs its top-level code
 * as a function over the job's file, unchanged except: PHP 8 removed implode()'s reversed
 * argument order that esc2html uses (`implode($classes, " ")`), so those calls are swapped;
 * the `CSS_FILE` constant is defined once outside the loop. Each run's HTML is checked once.
 */
import { execFileSync, spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(import.meta.dirname, '..');
const cacheRoot = join(root, 'node_modules', '.cache', 'slipstream-bench-esc2html');
const php = process.env.PHP ?? 'php';
const toolsGit = process.env.ESCPOS_TOOLS_DIR ?? '/work/.mirror/receipt-print-hq+escpos-tools/repo';
const phpLibGit = process.env.ESCPOS_PHP_DIR ?? '/work/.mirror/mike42+escpos-php/repo';

export const HOW_TO_GET_ESC2HTML =
  'esc2html needs `php` 8 with intl (apt-get install php-cli php-intl; or PHP=/path/to/php) and git clones of ' +
  'https://github.com/receipt-print-hq/escpos-tools and https://github.com/mike42/escpos-php ' +
  '(ESCPOS_TOOLS_DIR, ESCPOS_PHP_DIR; defaults under /work/.mirror)';

export interface Esc2html {
  /** What runs, for the bench's header (versions and commits). */
  readonly label: string;
  /** escpos-php's example/barcode.php as its Printer writes it (FilePrintConnector). */
  readonly barcodeExample: Uint8Array;
  /** esc2html's conversions per second of `bytes` over about `ms`, timed inside PHP. */
  jobsPerSecond(bytes: Uint8Array, ms: number): Promise<number>;
  /** esc2html's HTML of `bytes` (one run). */
  html(bytes: Uint8Array): Promise<string>;
  close(): void;
}

/** esc2html ready to be measured, or why it is not (the bench prints it and skips that side). */
export async function startEsc2html(): Promise<Esc2html | { missing: string }> {
  const version = spawnSync(php, ['-r', 'echo PHP_VERSION, " ", extension_loaded("intl") ? "intl" : "no-intl";'], { encoding: 'utf8' });
  if (version.status !== 0) return { missing: `no \`${php}\` here` };
  const [phpVersion, intl] = version.stdout.split(' ');
  if (Number(phpVersion.split('.')[0]) < 8) return { missing: `${php} is PHP ${phpVersion}, not 8` };
  if (intl !== 'intl') return { missing: `${php} has no intl extension` };
  const tools = extract(toolsGit, 'escpos-tools', 'esc2html.php');
  if (typeof tools !== 'string') return tools;
  const lib = extract(phpLibGit, 'escpos-php', 'src/Mike42/Escpos/Printer.php');
  if (typeof lib !== 'string') return lib;
  writeAutoloader(lib, tools);
  const harness = join(cacheRoot, 'esc2html-loop.php');
  writeFileSync(harness, loopHarness(tools, lib));

  const example = spawnSync(php, [join(lib, 'example', 'barcode.php')], { cwd: join(lib, 'example'), maxBuffer: 1 << 24 });
  if (example.status !== 0) return { missing: `escpos-php's example/barcode.php failed: ${example.stderr}` };
  const commits = `escpos-tools ${commitOf(toolsGit)}, escpos-php ${commitOf(phpLibGit)}`;
  return new PhpLoop(harness, `esc2html (PHP ${phpVersion}; ${commits}; one warm process, timed inside PHP)`, new Uint8Array(example.stdout));
}

class PhpLoop implements Esc2html {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly replies: ((line: string) => void)[] = [];
  private readonly jobFile = join(cacheRoot, 'job.bin');
  private written: Uint8Array | null = null;

  constructor(harness: string, readonly label: string, readonly barcodeExample: Uint8Array) {
    this.child = spawn(php, [harness], { stdio: ['pipe', 'pipe', 'pipe'] });
    let errors = '';
    this.child.stderr.on('data', (d) => (errors += d));
    this.child.on('exit', (code) => {
      for (const r of this.replies.splice(0)) r(`error esc2html's PHP process ended (${code}): ${errors}`);
    });
    createInterface({ input: this.child.stdout }).on('line', (line) => this.replies.shift()?.(line));
  }

  private ask(command: string): Promise<string> {
    return new Promise((resolve, reject) => {
      this.replies.push((line) => (line.startsWith('error ') ? reject(new Error(line.slice(6))) : resolve(line)));
      this.child.stdin.write(`${command}\n`);
    });
  }

  private file(bytes: Uint8Array): string {
    if (this.written !== bytes) {
      writeFileSync(this.jobFile, bytes);
      this.written = bytes;
    }
    return this.jobFile;
  }

  async jobsPerSecond(bytes: Uint8Array, ms: number): Promise<number> {
    const [n, ns] = (await this.ask(`loop\t${this.file(bytes)}\t${ms}`)).split(' ').map(Number);
    return (n * 1e9) / ns;
  }

  async html(bytes: Uint8Array): Promise<string> {
    return Buffer.from(await this.ask(`html\t${this.file(bytes)}`), 'base64').toString('utf8');
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** The repository's HEAD extracted under the cache (once per commit); its directory, or why not. */
function extract(gitDir: string, name: string, mustHave: string): string | { missing: string } {
  if (!existsSync(gitDir)) return { missing: `${name} not found at ${gitDir}` };
  const commit = commitOf(gitDir);
  if (!commit) return { missing: `${gitDir} is not a git repository of ${name}` };
  const dir = join(cacheRoot, `${name}-${commit}`);
  if (!existsSync(join(dir, mustHave))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-x', '-C', dir], { input: execFileSync('git', ['-C', gitDir, 'archive', 'HEAD'], { maxBuffer: 1 << 28 }) });
    if (!existsSync(join(dir, mustHave))) return { missing: `${gitDir} holds no ${mustHave}: not ${name}?` };
  }
  return dir;
}

function commitOf(gitDir: string): string | null {
  const r = spawnSync('git', ['-C', gitDir, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** composer's job for the two namespaces (escpos-php's examples require `../vendor/autoload.php`). */
function writeAutoloader(lib: string, tools: string): void {
  mkdirSync(join(lib, 'vendor'), { recursive: true });
  writeFileSync(join(lib, 'vendor', 'autoload.php'), `<?php
spl_autoload_register(function ($class) {
    $roots = ['Mike42\\\\' => ${JSON.stringify(join(lib, 'src', 'Mike42') + '/')}, 'ReceiptPrintHq\\\\EscposTools\\\\' => ${JSON.stringify(join(tools, 'src') + '/')}];
    foreach ($roots as $prefix => $dir) {
        if (strncmp($class, $prefix, strlen($prefix)) === 0) {
            $file = $dir . str_replace('\\\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) require $file;
            return;
        }
    }
});
`);
}

/** Replaces `from` by `to` in `text`, failing loudly when esc2html.php no longer has it. */
function patch(text: string, from: string, to: string, all = false): string {
  if (!text.includes(from)) throw new Error(`esc2html.php changed: "${from}" not found; bench/esc2html-oracle.ts needs updating`);
  return all ? text.replaceAll(from, to) : text.replace(from, to);
}

/**
 * A PHP script that answers, one line per command on stdin:
 * `loop <file> <ms>` with `<runs> <nanoseconds>` of esc2html over the file for about ms;
 * `html <file>` with one run's HTML in base64.
 */
function loopHarness(tools: string, lib: string): string {
  let source = readFileSync(join(tools, 'esc2html.php'), 'utf8');
  source = patch(source, 'implode($classes, " ")', 'implode(" ", $classes)', true);
  const split = source.indexOf('\nfunction ');
  if (split < 0) throw new Error('esc2html.php changed: no functions after its script');
  let main = source.slice(0, split);
  const functions = source.slice(split);
  const uses = main.match(/^use [^;]+;$/gm) ?? [];
  main = patch(main, '<?php', '');
  main = patch(main, "require_once __DIR__ . '/vendor/autoload.php';", '');
  main = patch(main, 'const CSS_FILE = __DIR__ . "/src/resources/esc2html.css";', '');
  for (const u of uses) main = main.replace(u, '');
  return `<?php
// Generated by bench/esc2html-oracle.ts from ${join(tools, 'esc2html.php')}: its script as a function, run in a loop.
error_reporting(E_ALL & ~E_DEPRECATED);
require ${JSON.stringify(join(lib, 'vendor', 'autoload.php'))};
${uses.join('\n')}
define('CSS_FILE', ${JSON.stringify(join(tools, 'src', 'resources', 'esc2html.css'))});

function esc2html_script($argv)
{
${main}
}
${functions}

function esc2html_once($file)
{
    ob_start();
    esc2html_script(['esc2html.php', $file]);
    return ob_get_clean();
}

while (($line = fgets(STDIN)) !== false) {
    $args = explode("\\t", rtrim($line, "\\n"));
    if ($args[0] === 'html') {
        echo base64_encode(esc2html_once($args[1])), "\\n";
    } else if ($args[0] === 'loop') {
        $runs = 0;
        $t0 = hrtime(true);
        $end = $t0 + (int) $args[2] * 1000000;
        do {
            esc2html_once($args[1]);
            $runs++;
            $t = hrtime(true);
        } while ($t < $end);
        echo $runs, ' ', $t - $t0, "\\n";
    } else {
        echo "error unknown command {$args[0]}\\n";
    }
}
`;
}
