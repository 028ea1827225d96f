/** ru / en / uk switch for the public pages; the current language is disabled, as in the top bar. */
import { LANGUAGES, type Language } from '@herald/shared';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { getPresenter } from '../api/http';
import { changeLanguage, currentLanguage } from '../i18n';

export function LanguageSwitcher() {
  // useTranslation re-renders this on every language change, so reading the current one here stays fresh.
  const { t } = useTranslation('public');
  const language = currentLanguage();

  async function choose(next: Language) {
    await changeLanguage(next);
    getPresenter().message.success(t('languageChanged'));
  }

  return (
    <Select<Language>
      data-testid="language-switcher"
      aria-label={t('language')}
      value={language}
      onChange={choose}
      popupMatchSelectWidth={false}
      variant="borderless"
      options={LANGUAGES.map((code) => ({ value: code, label: t(`languages.${code}`), disabled: code === language }))}
    />
  );
}
