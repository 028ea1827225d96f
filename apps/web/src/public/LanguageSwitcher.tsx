/** ru / en / uk switch for the public pages: each language in its own name, the current one marked and inert. */
import { LANGUAGES, type Language } from '@herald/shared';
import { Button, Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { getPresenter } from '../api/http';
import { changeLanguage, currentLanguage } from '../i18n';
import { rememberChosenLanguage } from '../session/session';

export function LanguageSwitcher() {
  // useTranslation re-renders this on every language change, so reading the current one here stays fresh.
  const { t } = useTranslation('public');
  const language = currentLanguage();

  async function choose(next: Language) {
    await changeLanguage(next);
    rememberChosenLanguage(next);
    // `t` is bound to the language this render used; the confirmation speaks the new one.
    getPresenter().message.success(t('languageChanged', { lng: next }));
  }

  // Plain buttons rather than a Select or Segmented: Button is on every public page already, so this adds no code.
  return (
    <Flex data-testid="language-switcher" role="group" aria-label={t('language')} gap={4}>
      {LANGUAGES.map((code) => (
        <Button
          key={code}
          data-testid={`language-option-${code}`}
          size="small"
          type={code === language ? 'primary' : 'text'}
          aria-pressed={code === language}
          onClick={code === language ? undefined : () => void choose(code)}
        >
          {t(`languages.${code}`)}
        </Button>
      ))}
    </Flex>
  );
}
