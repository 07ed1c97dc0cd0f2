/**
 * English, bundled with the entry: the strings of the login screens and the shell's frame. The
 * inner pages' areas (enAreas.ts) load with the shell. Every other language is checked against
 * both together (de.ts, cs.ts) and loaded only when chosen (i18n.ts).
 */
import base from './en.json';
import type { enAreas } from './enAreas.ts';

export const en = base;

/** Every string the web has, in English: what `t` accepts and every language must hold. */
export type Strings = typeof base & typeof enAreas;
