/** antd form rules built on the shared validation of spec section 5, with texts from the errors namespace. */
import { checkPassword, checkPasswordConfirmation, isEmail, type RuleFailure } from '@herald/shared';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

export function failureText(t: TFunction, failure: RuleFailure): string {
  return t(`errors:${failure.key}`, failure.params ?? {});
}

export function emailRule(t: TFunction): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      const email = (value ?? '').trim();
      if (!email) throw new Error(t('errors:validation.emailMissing'));
      if (!isEmail(email)) throw new Error(t('errors:validation.invalidEmail'));
    },
  };
}

export function passwordRule(t: TFunction): FormRule {
  return {
    validator: async (_, value: string | undefined) => {
      const failure = checkPassword(value);
      if (failure) throw new Error(failureText(t, failure));
    },
  };
}

/** The confirmation must equal the form's `password` field. */
export function confirmRule(t: TFunction): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_, value: string | undefined) => {
      if (!value) throw new Error(t('errors:validation.passwordMissing'));
      const failure = checkPasswordConfirmation(String(getFieldValue('password') ?? ''), value);
      if (failure) throw new Error(failureText(t, failure));
    },
  });
}
