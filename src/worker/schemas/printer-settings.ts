/**
 * The printer settings: one entry per setting, the one place a setting is declared. The SQL
 * column lists and row decoding (data/printers.ts, data/declared-config.ts), the row type
 * (data/rows.ts), the response DTO (services/dto.ts, schemas/printer.ts), the request schema and
 * its case-insensitive keys (schemas/printer.ts, routes/printers.ts), the printers file
 * (schemas/printers-config.ts), the bridge's listener spec (objects/bridge-hub.ts) and the web
 * form's fields (web/src/views/printer-form.ts, by type) all derive from PRINTER_SETTINGS.
 * test/workers/printer-settings.test.ts follows every entry through all of them.
 *
 * Adding a setting: one entry here, a migration adding its column, and its behaviour.
 */
import { z } from '@hono/zod-openapi';
import { PROTOCOL_NAMES } from '../../engines/protocols.ts';
import { defaultModelFor } from '../../engines/models/index.ts';
import { MultiByteEncoding } from './printer-model.ts';
import { Int32, Uuid } from './common.ts';
import type { ListenerSpec } from '../../shared/bridge-protocol.ts';
import { CloudPrint } from './cloud-print.ts';

/** Who reads a setting: the REST API, the tcp-bridge (listener spec), the engines (print context), the web form. */
export type Audience = 'api' | 'bridge' | 'engine' | 'ui';

/**
 * How a value is stored in its D1 column: `bool` as 0/1, `json` as JSON text (object-valued
 * settings), the others as themselves. NULL always means "not set" (null omission in the DTO).
 */
export type ColumnCodec = 'text' | 'integer' | 'real' | 'bool' | 'json';

/**
 * Who writes the column: `settings` — every create and update writes it from the request (or
 * the printers file) through settingColumns(); `port` — the port allocator, once, at create;
 * `bridge` — the bridge assignment (create, and on update only when the request names one).
 */
export type Writer = 'settings' | 'port' | 'bridge';

export interface SettingSpec<T = unknown> {
  /** The D1 column (snake_case of the API name). */
  column: string;
  codec: ColumnCodec;
  /** Whether the column may be NULL ("not set"; for model and multiByteEncoding: a printer from before models). */
  nullable: boolean;
  writer: Writer;
  /** The response DTO's type; absent values (NULL) are omitted from the response. */
  dto: z.ZodType<T>;
  /** The request's type (create and update); omitted: see `defaultValue`. */
  request: z.ZodType;
  /** The printers file's type; absent: the file cannot declare the setting. */
  file?: z.ZodType;
  /**
   * What an omitted request value becomes: a value, null (not set), `fromModel` (resolved from
   * the printer model, services/printer-models.ts) or `required` (a request must give it).
   */
  defaultValue: T | null | 'fromModel' | 'required';
  seenBy: readonly Audience[];
  /** A valid value other than the default: the settings path test creates a printer with it. */
  example: T;
}

/** Keeps the entry's literal types (column names, audiences) for the derived types below. */
const setting = <const S extends SettingSpec<any>>(s: S): S => s;

/** Paper size in a request; omitted width: the model's printable width (defaultWidthInDots). */
export const RequestWidthInDots = z.number().int().min(8).max(4096).optional()
  .openapi({ description: 'Default: the model’s printable width (defaultWidthInDots in GET /api/printer-models); on update, the current width while the model is unchanged' });
export const RequestHeightInDots = z.number().int().min(8).max(32768).nullable().optional();

/** The protocols of the engine registry (src/engines/protocols.ts). */
export const Protocol = z.enum(PROTOCOL_NAMES);

/** In the DTO's property order. */
export const PRINTER_SETTINGS = {
  protocol: setting({
    column: 'protocol', codec: 'text', nullable: false, writer: 'settings',
    dto: Protocol, request: Protocol, file: Protocol,
    defaultValue: 'required', seenBy: ['api', 'bridge', 'engine', 'ui'], example: 'EscPos',
  }),
  model: setting({
    column: 'model', codec: 'text', nullable: true, writer: 'settings',
    dto: z.string().openapi({ description: 'Printer model id (GET /api/printer-models)' }),
    request: z.string().min(1).max(100).optional().openapi({ description: `Printer model id (GET /api/printer-models); default per protocol (${PROTOCOL_NAMES.map((p) => `${defaultModelFor(p).id} for ${p}`).join(', ')})` }),
    // Checked against the printer-model catalogue when the file is applied, as the API checks it.
    file: z.string().trim().min(1).max(100).optional(),
    defaultValue: 'fromModel', seenBy: ['api', 'engine', 'ui'], example: 'xprinter-xp-n160ii',
  }),
  multiByteEncoding: setting({
    column: 'multi_byte_encoding', codec: 'text', nullable: true, writer: 'settings',
    dto: MultiByteEncoding,
    request: MultiByteEncoding.optional().openapi({ description: 'Default: the model’s' }),
    defaultValue: 'fromModel', seenBy: ['api', 'engine'], example: 'Big5',
  }),
  widthInDots: setting({
    column: 'width_in_dots', codec: 'integer', nullable: false, writer: 'settings',
    dto: Int32, request: RequestWidthInDots, file: RequestWidthInDots,
    defaultValue: 'fromModel', seenBy: ['api', 'engine', 'ui'], example: 512,
  }),
  heightInDots: setting({
    column: 'height_in_dots', codec: 'integer', nullable: true, writer: 'settings',
    dto: Int32.optional(), request: RequestHeightInDots, file: RequestHeightInDots,
    defaultValue: null, seenBy: ['api', 'engine', 'ui'], example: 1800,
  }),
  tcpListenPort: setting({
    column: 'tcp_listen_port', codec: 'integer', nullable: false, writer: 'port',
    dto: Int32,
    request: z.unknown().optional().openapi({ description: 'Ignored: ports are server-assigned' }),
    file: z.number().int().min(1).max(65535).optional(),
    defaultValue: null, seenBy: ['api', 'bridge'], example: 0,
  }),
  emulateBufferCapacity: setting({
    column: 'emulate_buffer_capacity', codec: 'bool', nullable: false, writer: 'settings',
    dto: z.boolean(), request: z.boolean().optional().default(false),
    defaultValue: false, seenBy: ['api', 'bridge', 'engine', 'ui'], example: true,
  }),
  bufferDrainRate: setting({
    column: 'buffer_drain_rate', codec: 'real', nullable: true, writer: 'settings',
    dto: z.number().optional().openapi({ description: 'Bytes per second' }),
    request: z.number().positive().max(1e9).nullable().optional(),
    defaultValue: null, seenBy: ['api', 'bridge', 'ui'], example: 2048.5,
  }),
  bufferMaxCapacity: setting({
    column: 'buffer_max_capacity', codec: 'integer', nullable: true, writer: 'settings',
    dto: Int32.optional().openapi({ description: 'Bytes' }),
    request: z.number().int().min(1).max(1 << 30).nullable().optional(),
    defaultValue: null, seenBy: ['api', 'bridge', 'engine', 'ui'], example: 8192,
  }),
  bridgeId: setting({
    column: 'bridge_id', codec: 'text', nullable: true, writer: 'bridge',
    dto: Uuid.optional().openapi({ description: 'The bridge serving the port (GET /api/workspaces/bridges); omitted (null omission): the deployment’s shared bridge' }),
    request: Uuid.nullable().optional().openapi({ description: 'A bridge of the workspace (else 400); null: the deployment’s shared bridge. Omitted: unchanged on update, shared on create' }),
    defaultValue: null, seenBy: ['api', 'ui'], example: '00000000-0000-4000-8000-000000000000',
  }),
  cloudPrint: setting({
    column: 'cloud_print', codec: 'json', nullable: true, writer: 'settings',
    dto: CloudPrint.optional().openapi({ description: 'The server this printer polls as a cloud printer (extensions.md "Cloud printers"); omitted: none' }),
    request: CloudPrint.nullable().optional().openapi({ description: 'kind against the protocol, http(s) URL (ALLOW_PRIVATE_TARGETS decides loopback/private hosts), intervalSeconds 1–60 (default 5); null or omitted: none' }),
    file: CloudPrint.nullable().optional(),
    defaultValue: null, seenBy: ['api', 'ui'], example: { kind: 'EpsonServerDirectPrint', url: 'https://orders.example.com/epson/sdp', intervalSeconds: 7 },
  }),
} as const;

type Settings = typeof PRINTER_SETTINGS;
export type SettingName = keyof Settings;
export const SETTING_NAMES = Object.keys(PRINTER_SETTINGS) as SettingName[];

type ValueOf<K extends SettingName> = z.infer<Settings[K]['dto']>;
type NamesBy<Field extends 'writer', V> = { [K in SettingName]: Settings[K][Field] extends V ? K : never }[SettingName];
type NamesSeenBy<A extends Audience> = { [K in SettingName]: A extends Settings[K]['seenBy'][number] ? K : never }[SettingName];

/** Settings every create and update writes (the others: the port allocator, the bridge assignment). */
export type StoredSettingName = NamesBy<'writer', 'settings'>;
/** The settings the web form edits (web/src/views/printer-form.ts writes exactly these). */
export type UiSettingName = NamesSeenBy<'ui'>;

type OrNull<K extends SettingName, T> = T | (Settings[K]['nullable'] extends true ? null : never);
/** A printer's stored settings, decoded: NULL columns are null. */
export type StoredSettings = { [K in StoredSettingName]: OrNull<K, Exclude<ValueOf<K>, undefined>> };

type ColumnValue<K extends SettingName> = Settings[K]['codec'] extends 'json' ? string
  : Settings[K]['codec'] extends 'text' ? Exclude<ValueOf<K>, undefined> : number;
/** The settings' columns as D1 returns them (part of PrinterRow). */
export type SettingColumns = { [K in SettingName as Settings[K]['column']]: OrNull<K, ColumnValue<K>> };

export const settingNamesSeenBy = (audience: Audience): SettingName[] =>
  SETTING_NAMES.filter((k) => (PRINTER_SETTINGS[k].seenBy as readonly Audience[]).includes(audience));
export const STORED_SETTING_NAMES = SETTING_NAMES.filter((k) => PRINTER_SETTINGS[k].writer === 'settings') as StoredSettingName[];

function encode(codec: ColumnCodec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (codec === 'bool') return value ? 1 : 0;
  if (codec === 'json') return JSON.stringify(value);
  return value;
}

function decode(codec: ColumnCodec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (codec === 'bool') return value === 1 || value === true;
  if (codec === 'json') return JSON.parse(String(value));
  return value;
}

/** Columns and values of the stored settings, in one order, for INSERT and UPDATE. */
export function settingColumns(s: StoredSettings): { columns: string[]; values: unknown[] } {
  return {
    columns: STORED_SETTING_NAMES.map((k) => PRINTER_SETTINGS[k].column),
    values: STORED_SETTING_NAMES.map((k) => encode(PRINTER_SETTINGS[k].codec, s[k])),
  };
}

/** Any setting's value from a row, decoded; null when the column is NULL. */
export function settingFromRow<K extends SettingName>(row: SettingColumns, name: K): ValueOf<K> | null {
  const spec: SettingSpec = PRINTER_SETTINGS[name];
  return decode(spec.codec, (row as Record<string, unknown>)[spec.column]) as ValueOf<K> | null;
}

/** The stored settings of a row, as stored (no model resolution: see services/printer-models.ts modelChoiceOf). */
export function storedSettingsOf(row: SettingColumns): StoredSettings {
  return Object.fromEntries(STORED_SETTING_NAMES.map((k) => [k, settingFromRow(row, k)])) as StoredSettings;
}

/** Stored settings for what a request (or the printers file) omits; model-resolved and required ones come from the caller. */
export function defaultStoredSettings(): Omit<StoredSettings, NoPlainDefault> {
  const out: Record<string, unknown> = {};
  for (const k of STORED_SETTING_NAMES) {
    const d = PRINTER_SETTINGS[k].defaultValue;
    if (d !== 'fromModel' && d !== 'required') out[k] = d;
  }
  return out as Omit<StoredSettings, NoPlainDefault>;
}
type NoPlainDefault = { [K in StoredSettingName]: Settings[K]['defaultValue'] extends 'fromModel' | 'required' ? K : never }[StoredSettingName];

/** The zod shape of the settings in a response, in list order. */
export const settingsDtoShape = () =>
  Object.fromEntries(SETTING_NAMES.map((k) => [k, PRINTER_SETTINGS[k].dto])) as { [K in SettingName]: Settings[K]['dto'] };

/** The zod shape of the settings in a create or update request. */
export const settingsRequestShape = () =>
  Object.fromEntries(SETTING_NAMES.map((k) => [k, PRINTER_SETTINGS[k].request])) as { [K in SettingName]: Settings[K]['request'] };

type FileName = { [K in SettingName]: Settings[K] extends { file: z.ZodType } ? K : never }[SettingName];
/** The zod shape of the settings the printers file may declare. */
export const settingsFileShape = () =>
  Object.fromEntries(SETTING_NAMES.flatMap((k) => {
    const file = (PRINTER_SETTINGS[k] as SettingSpec).file;
    return file ? [[k, file]] : [];
  })) as { [K in FileName]: Settings[K] extends { file: infer F } ? F : never };

/**
 * A row's settings in the response: every setting the API sees, NULL ones omitted. `resolved`
 * overrides stored values with resolved ones (the model choice of a printer from before models).
 */
export function settingsDtoOf(row: SettingColumns, resolved: Partial<{ [K in SettingName]: ValueOf<K> }> = {}) {
  const out: Record<string, unknown> = {};
  for (const k of settingNamesSeenBy('api')) {
    const v = k in resolved ? resolved[k] : settingFromRow(row, k);
    if (v !== null && v !== undefined) out[k] = v;
  }
  return out as { [K in SettingName]: ValueOf<K> };
}

/**
 * The bridge's view of a printer's settings (the listener spec's `protocol` and `buffer`). The
 * wire keeps the `buffer: { maxCapacity, drainRate }` object that deployed bridges read; this is
 * the one place the settings map onto it.
 */
export function listenerSettingsOf(row: SettingColumns): Pick<ListenerSpec, 'protocol' | 'buffer'> {
  const emulate = settingFromRow(row, 'emulateBufferCapacity');
  const maxCapacity = settingFromRow(row, 'bufferMaxCapacity');
  const drainRate = settingFromRow(row, 'bufferDrainRate');
  return {
    protocol: settingFromRow(row, 'protocol')!,
    buffer: emulate && maxCapacity != null && drainRate != null ? { maxCapacity, drainRate } : null,
  };
}
