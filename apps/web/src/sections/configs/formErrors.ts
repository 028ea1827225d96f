/** Puts a failed submit's field errors on the form; what no field can show is reported centrally. */
import type { FormInstance } from 'antd';
import { useState } from 'react';
import { ApiError, reportError } from '../../api/http';

export type FieldPath = (string | number)[];

/** "filter.0.value" becomes ['filter', 0, 'value'], the path antd's Form.List uses. */
export function splitFieldPath(field: string): FieldPath {
  return field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export function showSubmitError(
  form: FormInstance,
  error: unknown,
  toPath: (field: string) => FieldPath | undefined = splitFieldPath,
): void {
  const failures = error instanceof ApiError ? (error.fields ?? []) : [];
  const placed = new Map<string, { name: FieldPath; errors: string[] }>();
  let unplaced = failures.length === 0;
  for (const failure of failures) {
    const name = toPath(failure.field);
    if (!name) {
      unplaced = true;
      continue;
    }
    const key = name.join('.');
    const entry = placed.get(key) ?? { name, errors: [] };
    entry.errors.push(failure.message);
    placed.set(key, entry);
  }
  const fields = [...placed.values()];
  form.setFields(fields);
  if (fields[0]) form.scrollToField(fields[0].name, { block: 'center' });
  if (unplaced) reportError(error);
}

/** Validates the form, then runs the submit with a busy flag; a failed submit's field errors land on the form. */
export function useFormSubmit<Values>(
  form: FormInstance<Values>,
  submit: (values: Values) => Promise<void>,
  /** Where a server field error goes on the form, given the values that were sent. */
  toPath?: (field: string, values: Values) => FieldPath | undefined,
): { saving: boolean; save: () => Promise<void> } {
  const [saving, setSaving] = useState(false);
  const save = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await submit(values);
    } catch (error) {
      showSubmitError(form, error, toPath && ((field) => toPath(field, values)));
    } finally {
      setSaving(false);
    }
  };
  return { saving, save };
}
