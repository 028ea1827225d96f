/** The search field above a list: a clearable input with a search icon that reports each change. */
import { SearchOutlined } from '@ant-design/icons';
import { Input, theme } from 'antd';

export interface SearchBoxProps {
  value?: string;
  onSearch: (text: string) => void;
  placeholder: string;
  testId: string;
  width?: number;
}

export function SearchBox({ value, onSearch, placeholder, testId, width = 280 }: SearchBoxProps) {
  const { token } = theme.useToken();
  return (
    <Input
      allowClear
      data-testid={testId}
      prefix={<SearchOutlined style={{ color: token.colorTextTertiary }} />}
      placeholder={placeholder}
      style={{ width }}
      value={value}
      onChange={(event) => onSearch(event.target.value)}
    />
  );
}
