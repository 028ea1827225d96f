/** The import's column mapping as the form edits it (one choice per column) and the checks the server would make. */
import type { TFunction } from 'i18next';
import type { Mapping } from './api';

export const FIELD_TARGETS = ['email', 'phone', 'name', 'language', 'timeZone', 'status'] as const;
export type FieldTarget = (typeof FIELD_TARGETS)[number];
export type Target = FieldTarget | 'attribute' | 'skip';

export interface ColumnChoice {
  target: Target;
  /** The attribute's name, kept while another target is picked so switching back restores it. */
  attribute: string;
}

const ATTRIBUTE_PREFIX = 'attribute:';
/** Attribute names become template variables, so they stay plain words (the server's rule). */
const ATTRIBUTE_NAME = /^[\p{L}\p{N}_-]{1,64}$/u;

/** A header title as an attribute name, as the server suggests it: spaces become underscores, the rest unusable is dropped. */
export function attributeNameOf(title: string | undefined): string {
  return (title ?? '')
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .slice(0, 64);
}

function isFieldTarget(value: string): value is FieldTarget {
  return (FIELD_TARGETS as readonly string[]).includes(value);
}

export function choicesOf(mapping: Mapping, columnCount: number, header: string[] | null): ColumnChoice[] {
  return Array.from({ length: columnCount }, (_, column) => {
    const target = mapping[String(column)] ?? 'skip';
    if (target.startsWith(ATTRIBUTE_PREFIX)) return { target: 'attribute', attribute: target.slice(ATTRIBUTE_PREFIX.length) };
    return { target: isFieldTarget(target) ? target : 'skip', attribute: attributeNameOf(header?.[column]) };
  });
}

export function mappingOf(choices: ColumnChoice[]): Mapping {
  const mapping: Mapping = {};
  choices.forEach((choice, column) => {
    mapping[String(column)] = choice.target === 'attribute' ? `${ATTRIBUTE_PREFIX}${choice.attribute.trim()}` : choice.target;
  });
  return mapping;
}

export interface MappingProblems {
  /** A message per column index, where that column's choice cannot be used. */
  columns: Record<number, string>;
  /** Neither an e-mail nor a phone column is chosen. */
  noContact: boolean;
}

export function checkChoices(choices: ColumnChoice[], t: TFunction): MappingProblems {
  const columns: Record<number, string> = {};
  const seen = new Set<string>();
  choices.forEach((choice, column) => {
    if (choice.target === 'skip') return;
    const key = choice.target === 'attribute' ? `${ATTRIBUTE_PREFIX}${choice.attribute.trim()}` : choice.target;
    if (choice.target === 'attribute' && !ATTRIBUTE_NAME.test(choice.attribute.trim())) {
      columns[column] = t('errors:validation.invalidAttributeName');
    } else if (seen.has(key)) {
      columns[column] = t('errors:import.mappingDuplicate');
    }
    seen.add(key);
  });
  return { columns, noContact: !seen.has('email') && !seen.has('phone') };
}

export function hasProblems(problems: MappingProblems): boolean {
  return problems.noContact || Object.keys(problems.columns).length > 0;
}
