/** Top bar language switch: each language in its own name, the current one disabled (spec section 2). */
import { TranslationOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@herald/shared';
import { App, Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError, http, reportError } from '../api/http';
import { changeLanguage, currentLanguage } from '../i18n';
import { useSession } from '../session/useSession';

/** Language names are written in the language itself, so a user can always find their own. */
const LANGUAGE_NAMES: Record<Language, string> = { ru: 'Русский', en: 'English', uk: 'Українська' };

export function LanguageSelect() {
  const { t } = useTranslation('layout');
  const { message } = App.useApp();
  const { token } = useSession();
  const language = currentLanguage();

  async function choose(next: Language) {
    await changeLanguage(next);
    // `t` is bound to the language this render used; the confirmation speaks the new one.
    message.success(t('languageChanged', { lng: next }));
    if (!token) return;
    // The account keeps the choice so the next sign-in opens in it; an older server without the call is not an error.
    await http.post('/data/users/change-language', { language: next }, { silent: true }).catch((error: unknown) => {
      if (!(error instanceof ApiError && error.status === 404)) reportError(error);
    });
  }

  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [language],
        items: LANGUAGES.map((code) => ({
          key: code,
          disabled: code === language,
          label: <span data-testid={`lang-option-${code}`}>{LANGUAGE_NAMES[code]}</span>,
        })),
        onClick: ({ key }) => {
          const next = LANGUAGES.find((code) => code === key);
          if (next) void choose(next);
        },
      }}
    >
      <Button type="text" data-testid="language-select" aria-label={t('language')} icon={<TranslationOutlined />} />
    </Dropdown>
  );
}
