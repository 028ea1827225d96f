/** Request and answer shapes of the account and session calls (spec section 7). */
import { Type } from 'typebox';

const Password = Type.String({ maxLength: 200 });
const Email = Type.String({ maxLength: 254 });

export const TokenAnswer = Type.Object({ token: Type.String() });
export const OkAnswer = Type.Object({ status: Type.String() });

export const LoginBody = Type.Object({
  username: Email,
  password: Password,
});

export const SignupBody = Type.Object({
  email: Email,
  password: Password,
  timeZone: Type.Object({ id: Type.String({ maxLength: 3 }), offset: Type.Optional(Type.Number()) }),
  avatar: Type.Optional(Type.String({ maxLength: 100 })),
  role: Type.Optional(Type.String({ maxLength: 20 })),
  language: Type.Optional(Type.String({ maxLength: 5 })),
});

export const UserInfo = Type.Object({
  username: Type.String(),
  name: Type.String(),
  avatar: Type.String(),
  roles: Type.Array(Type.String(), { minItems: 1 }),
  profile: Type.String(),
  timeZone: Type.Object({ id: Type.String(), offset: Type.Number(), utc: Type.String() }),
  language: Type.Union([Type.String(), Type.Null()]),
});

export const SessionAnswer = Type.Object({ status: Type.Literal('valid'), roles: Type.Array(Type.String()) });

export const ChangePasswordBody = Type.Object({
  oldPassword: Password,
  newPassword: Password,
  confirmPassword: Type.Optional(Password),
});

export const ChangeTimeZoneBody = Type.Object({
  id: Type.String({ maxLength: 3 }),
  offset: Type.Optional(Type.Number()),
});

export const ChangeLanguageBody = Type.Object({
  language: Type.Union([Type.Literal('ru'), Type.Literal('en'), Type.Literal('uk')]),
});

export const ChangeNameBody = Type.Object({ name: Type.String({ maxLength: 200 }) });

export const DeleteAccountBody = Type.Object({
  confirmation: Type.String({ maxLength: 254, description: "The account's e-mail, typed by the user" }),
});

export const SwitchProfileBody = Type.Object({ profile: Type.Union([Type.Literal('site'), Type.Literal('api')]) });

export const RestorePasswordQuery = Type.Object({ email: Email });

export const ResetPasswordBody = Type.Object({
  token: Type.String({ maxLength: 200 }),
  password: Password,
  confirmPassword: Type.Optional(Password),
});
