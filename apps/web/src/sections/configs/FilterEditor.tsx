/** Country and operator-code filters of a provider configuration (spec section 5: up to 4 items). */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { isValidOperatorCodes, MAX_FILTER_ITEMS } from '@herald/shared';
import { Button, Flex, Form, Input, Select, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FilterItem } from './api';
import { useCountryOptions } from './labels';

function FilterRow({ name, onRemove }: { name: number; onRemove: () => void }) {
  const { t } = useTranslation('configs');
  const form = Form.useFormInstance();
  const kind = Form.useWatch<FilterItem['kind'] | undefined>(['filter', name, 'kind'], form);
  const countries = useCountryOptions();

  return (
    <Flex gap={8} align="start" data-testid={`provider-filter-${name}`}>
      <Form.Item name={[name, 'kind']} style={{ width: 180, marginBottom: 12 }}>
        <Select
          data-testid={`provider-filter-kind-${name}`}
          onChange={() => form.setFieldValue(['filter', name, 'value'], undefined)}
          options={[
            { value: 'country', label: t('providers.filter.country') },
            { value: 'operator', label: t('providers.filter.operator') },
          ]}
        />
      </Form.Item>
      {kind === 'operator' ? (
        <Form.Item
          name={[name, 'value']}
          style={{ flex: 1, marginBottom: 12 }}
          rules={[
            { required: true, whitespace: true, message: t('errors:validation.mandatory') },
            {
              validator: async (_, value: unknown) => {
                if (typeof value === 'string' && value.trim() && !isValidOperatorCodes(value))
                  throw new Error(t('errors:validation.invalidOperatorCodes'));
              },
            },
          ]}
        >
          <Input data-testid={`provider-filter-value-${name}`} placeholder={t('providers.filter.operatorPlaceholder')} />
        </Form.Item>
      ) : (
        <Form.Item
          name={[name, 'value']}
          style={{ flex: 1, marginBottom: 12 }}
          rules={[{ required: true, message: t('errors:validation.mandatory') }]}
        >
          <Select
            data-testid={`provider-filter-value-${name}`}
            showSearch={{ optionFilterProp: 'search' }}
            placeholder={t('providers.filter.countryPlaceholder')}
            options={countries}
          />
        </Form.Item>
      )}
      <Tooltip title={t('providers.filter.remove')}>
        <Button icon={<DeleteOutlined />} onClick={onRemove} aria-label={t('providers.filter.remove')} />
      </Tooltip>
    </Flex>
  );
}

export function FilterEditor() {
  const { t } = useTranslation('configs');
  return (
    <Form.Item label={t('providers.filter.label')} tooltip={t('providers.filter.help', { n: MAX_FILTER_ITEMS })}>
      <Form.List name="filter">
        {(items, { add, remove }, { errors }) => (
          <>
            {items.map((item) => (
              <FilterRow key={item.key} name={item.name} onRemove={() => remove(item.name)} />
            ))}
            <Button
              type="dashed"
              block
              icon={<PlusOutlined />}
              data-testid="provider-filter-add"
              disabled={items.length >= MAX_FILTER_ITEMS}
              onClick={() => add({ kind: 'country' })}
            >
              {items.length >= MAX_FILTER_ITEMS
                ? t('providers.filter.full', { n: MAX_FILTER_ITEMS })
                : t('providers.filter.add', { left: MAX_FILTER_ITEMS - items.length })}
            </Button>
            <Form.ErrorList errors={errors} />
          </>
        )}
      </Form.List>
    </Form.Item>
  );
}
