/**
 * The web form writes every setting the list says the UI edits (`ui` in
 * src/worker/schemas/printer-settings.ts). The form's settings object is also checked by type
 * (`satisfies { [K in UiSettingName]-?: unknown }`); this test fails when that check is removed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingNamesSeenBy } from '../../src/worker/schemas/printer-settings.ts';

const form = readFileSync(new URL('../../web/src/views/printer-form.ts', import.meta.url), 'utf8');
const settingsObject = /settings: \{([\s\S]*?)\} satisfies \{ \[K in UiSettingName\]-\?: unknown \}/.exec(form)?.[1];

describe('printer form and the settings list', () => {
  it('writes every UI setting in the request body, checked by type', () => {
    expect(settingsObject, 'the form builds its settings object under the UiSettingName check').toBeDefined();
    const written = [...settingsObject!.matchAll(/^\s*(\w+):/gm)].map((m) => m[1]);
    expect(written.sort()).toEqual(settingNamesSeenBy('ui').sort());
  });
});
