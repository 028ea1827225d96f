/** The live check's problems of one field, each with its line:column; a click puts the caret there. */
import { WarningOutlined } from '@ant-design/icons';
import { Flex, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Problem } from './api';

export function ProblemList({ problems, onJump }: { problems: Problem[]; onJump?: (line: number, column: number) => void }) {
  const { t } = useTranslation('templates');
  const { token } = theme.useToken();
  if (problems.length === 0) return null;
  return (
    <Flex vertical gap={4} data-testid="template-problems" style={{ marginTop: 6 }}>
      {problems.map((problem) => {
        const { line, column } = problem;
        const located = line !== null && column !== null;
        return (
          <Flex
            key={`${problem.field}:${line}:${column}:${problem.message}`}
            gap={8}
            align="baseline"
            data-testid="template-problem"
            data-field={problem.field}
            role={located && onJump ? 'button' : undefined}
            tabIndex={located && onJump ? 0 : undefined}
            title={located && onJump ? t('editor.problemJump') : undefined}
            onClick={() => located && onJump?.(line, column)}
            onKeyDown={(event) => {
              if (located && (event.key === 'Enter' || event.key === ' ')) {
                event.preventDefault();
                onJump?.(line, column);
              }
            }}
            style={{ cursor: located && onJump ? 'pointer' : undefined, fontSize: 13 }}
          >
            <WarningOutlined style={{ color: token.colorError }} />
            {located && (
              <Tag color="error" style={{ marginInlineEnd: 0, fontFamily: 'monospace' }} data-testid="template-problem-position">
                {line}:{column}
              </Tag>
            )}
            <Typography.Text type="danger">{problem.message}</Typography.Text>
          </Flex>
        );
      })}
    </Flex>
  );
}
