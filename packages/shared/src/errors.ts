/**
 * Message keys the server returns and the console translates; the texts come from the spec where it gives them.
 * Both sides read this one catalogue so a key never exists on one side only.
 */
import type { Language } from './constants.js';

const en = {
  'error.apiDown': 'Could not connect with the server.',
  'error.internal': 'Something went wrong on the server. Please try again.',
  'error.notFound': 'The requested record was not found.',
  'error.badRequest': 'The request is malformed.',
  'error.invalidJson': 'The request body is not valid JSON.',
  'error.payloadTooLarge': 'The request is too large (limit {limit}).',
  'error.unauthorized': 'Current session expired, please log in to continue',
  'error.forbidden': 'You do not have access to this page.',
  'error.tooManyRequests': 'Too many attempts. Please try again in {minutes} min.',
  'error.validation': 'Some fields are not filled in correctly.',
  'error.recordExists': 'Record with this name already exists!',
  'login.loginFail': 'Login failed. Please check your username and/or password.',
  'login.tooManyAttempts': 'Too many failed login attempts. Please try again in {minutes} min.',
  'validation.mandatory': 'Mandatory field missing.',
  'validation.nameExists': 'This name already exists.',
  'validation.usernameMissing': 'Enter user name',
  'validation.emailMissing': 'Enter your email',
  'validation.invalidEmail': 'Enter a valid email address',
  'validation.roleMissing': 'Choose a role',
  'validation.passwordMissing': 'Enter password',
  'validation.passwordTooShort': 'Password should have at least {n} characters',
  'validation.passwordTooLong': 'Password cannot be longer than {n} characters',
  'validation.passwordWeak': 'Password must contain at least one digit, one lowercase and one uppercase letter',
  'validation.passwordMismatch': 'Passwords do not match',
  'validation.wrongPassword': 'The current password is wrong',
  'validation.invalidValue': 'Invalid value',
  'validation.unknownTimeZone': 'Unknown time zone',
  'validation.unknownAvatar': 'Unknown avatar',
  'validation.invalidTemplateName': 'Use Latin characters, digits, dashes, parentheses and underscores only',
  'validation.invalidOperatorCodes': 'Operator codes may contain digits, spaces and commas only',
  'validation.tooManyFilters': 'At most {n} filter items are allowed',
  'reset.invalidToken': 'This password reset link is invalid or has expired.',
  'reset.sent': 'If this address has an account, a reset link has been sent to it.',
  feedbackNameMissing: 'Enter your name',
  emailMissing: 'Enter your email',
  invalidEmail: 'Enter a valid email address',
  feedbackDescMissing: 'Describe your question or problem',
  'feedback.errorNotify': 'Feedback could not be sent. Please try again.',
  'feedback.successNotify': 'Thank you! Your feedback has been sent.',
  'upload.wrongFile': 'Wrong file type or format.',
  'upload.notSupported': 'Upload not supported in this browser.',
  'upload.tooManyFiles': 'At most {n} files can be attached.',
  'upload.tooLarge': 'The file is too large (limit {limit}).',
} as const;

export type ErrorKey = keyof typeof en;

const ru: Record<ErrorKey, string> = {
  'error.apiDown': 'Не удалось связаться с сервером.',
  'error.internal': 'На сервере произошла ошибка. Попробуйте ещё раз.',
  'error.notFound': 'Запрошенная запись не найдена.',
  'error.badRequest': 'Некорректный запрос.',
  'error.invalidJson': 'Тело запроса не является корректным JSON.',
  'error.payloadTooLarge': 'Запрос слишком большой (предел {limit}).',
  'error.unauthorized': 'Текущая сессия истекла, войдите снова, чтобы продолжить',
  'error.forbidden': 'У вас нет доступа к этой странице.',
  'error.tooManyRequests': 'Слишком много попыток. Попробуйте снова через {minutes} мин.',
  'error.validation': 'Некоторые поля заполнены неверно.',
  'error.recordExists': 'Запись с таким именем уже существует!',
  'login.loginFail': 'Не удалось войти. Проверьте имя пользователя и/или пароль.',
  'login.tooManyAttempts': 'Слишком много неудачных попыток входа. Попробуйте снова через {minutes} мин.',
  'validation.mandatory': 'Не заполнено обязательное поле.',
  'validation.nameExists': 'Такое имя уже существует.',
  'validation.usernameMissing': 'Введите имя пользователя',
  'validation.emailMissing': 'Введите ваш e-mail',
  'validation.invalidEmail': 'Введите корректный адрес e-mail',
  'validation.roleMissing': 'Выберите роль',
  'validation.passwordMissing': 'Введите пароль',
  'validation.passwordTooShort': 'Пароль должен содержать не менее {n} символов',
  'validation.passwordTooLong': 'Пароль не может быть длиннее {n} символов',
  'validation.passwordWeak': 'Пароль должен содержать хотя бы одну цифру, одну строчную и одну заглавную букву',
  'validation.passwordMismatch': 'Пароли не совпадают',
  'validation.wrongPassword': 'Текущий пароль указан неверно',
  'validation.invalidValue': 'Недопустимое значение',
  'validation.unknownTimeZone': 'Неизвестный часовой пояс',
  'validation.unknownAvatar': 'Неизвестный аватар',
  'validation.invalidTemplateName': 'Допустимы только латинские буквы, цифры, дефисы, скобки и подчёркивания',
  'validation.invalidOperatorCodes': 'Коды операторов могут содержать только цифры, пробелы и запятые',
  'validation.tooManyFilters': 'Допускается не более {n} фильтров',
  'reset.invalidToken': 'Ссылка для сброса пароля недействительна или устарела.',
  'reset.sent': 'Если для этого адреса есть учётная запись, на него отправлена ссылка для сброса.',
  feedbackNameMissing: 'Введите ваше имя',
  emailMissing: 'Введите ваш e-mail',
  invalidEmail: 'Введите корректный адрес e-mail',
  feedbackDescMissing: 'Опишите ваш вопрос или проблему',
  'feedback.errorNotify': 'Не удалось отправить отзыв. Попробуйте ещё раз.',
  'feedback.successNotify': 'Спасибо! Ваш отзыв отправлен.',
  'upload.wrongFile': 'Неверный тип или формат файла.',
  'upload.notSupported': 'Загрузка не поддерживается в этом браузере.',
  'upload.tooManyFiles': 'Можно прикрепить не более {n} файлов.',
  'upload.tooLarge': 'Файл слишком большой (предел {limit}).',
};

const uk: Record<ErrorKey, string> = {
  'error.apiDown': "Не вдалося зв'язатися з сервером.",
  'error.internal': 'На сервері сталася помилка. Спробуйте ще раз.',
  'error.notFound': 'Запитаний запис не знайдено.',
  'error.badRequest': 'Некоректний запит.',
  'error.invalidJson': 'Тіло запиту не є коректним JSON.',
  'error.payloadTooLarge': 'Запит завеликий (межа {limit}).',
  'error.unauthorized': 'Поточна сесія завершилася, увійдіть знову, щоб продовжити',
  'error.forbidden': 'У вас немає доступу до цієї сторінки.',
  'error.tooManyRequests': 'Забагато спроб. Спробуйте знову через {minutes} хв.',
  'error.validation': 'Деякі поля заповнено неправильно.',
  'error.recordExists': 'Запис із такою назвою вже існує!',
  'login.loginFail': "Не вдалося увійти. Перевірте ім'я користувача та/або пароль.",
  'login.tooManyAttempts': 'Забагато невдалих спроб входу. Спробуйте знову через {minutes} хв.',
  'validation.mandatory': "Не заповнено обов'язкове поле.",
  'validation.nameExists': 'Така назва вже існує.',
  'validation.usernameMissing': "Введіть ім'я користувача",
  'validation.emailMissing': 'Введіть ваш e-mail',
  'validation.invalidEmail': 'Введіть коректну адресу e-mail',
  'validation.roleMissing': 'Оберіть роль',
  'validation.passwordMissing': 'Введіть пароль',
  'validation.passwordTooShort': 'Пароль має містити щонайменше {n} символів',
  'validation.passwordTooLong': 'Пароль не може бути довшим за {n} символів',
  'validation.passwordWeak': 'Пароль має містити щонайменше одну цифру, одну малу та одну велику літеру',
  'validation.passwordMismatch': 'Паролі не збігаються',
  'validation.wrongPassword': 'Поточний пароль указано неправильно',
  'validation.invalidValue': 'Неприпустиме значення',
  'validation.unknownTimeZone': 'Невідомий часовий пояс',
  'validation.unknownAvatar': 'Невідомий аватар',
  'validation.invalidTemplateName': 'Дозволені лише латинські літери, цифри, дефіси, дужки та підкреслення',
  'validation.invalidOperatorCodes': 'Коди операторів можуть містити лише цифри, пробіли та коми',
  'validation.tooManyFilters': 'Дозволено не більше {n} фільтрів',
  'reset.invalidToken': 'Посилання для скидання пароля недійсне або застаріло.',
  'reset.sent': 'Якщо для цієї адреси є обліковий запис, на неї надіслано посилання для скидання.',
  feedbackNameMissing: "Введіть ваше ім'я",
  emailMissing: 'Введіть ваш e-mail',
  invalidEmail: 'Введіть коректну адресу e-mail',
  feedbackDescMissing: 'Опишіть ваше питання або проблему',
  'feedback.errorNotify': 'Не вдалося надіслати відгук. Спробуйте ще раз.',
  'feedback.successNotify': 'Дякуємо! Ваш відгук надіслано.',
  'upload.wrongFile': 'Неправильний тип або формат файлу.',
  'upload.notSupported': 'Завантаження не підтримується в цьому браузері.',
  'upload.tooManyFiles': 'Можна прикріпити не більше {n} файлів.',
  'upload.tooLarge': 'Файл завеликий (межа {limit}).',
};

export const ERROR_MESSAGES: Record<Language, Record<ErrorKey, string>> = { en, ru, uk };

export function isErrorKey(key: string): key is ErrorKey {
  return Object.hasOwn(en, key);
}

/** The text of a message key in a language, with {name} placeholders filled in. */
export function errorText(key: ErrorKey, language: Language, params: Record<string, string | number> = {}): string {
  const template = ERROR_MESSAGES[language][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`));
}

/** The shape of every error body the API returns. */
export interface ApiErrorBody {
  statusCode: number;
  key: ErrorKey;
  message: string;
  fields?: { field: string; key: ErrorKey; message: string }[];
}
