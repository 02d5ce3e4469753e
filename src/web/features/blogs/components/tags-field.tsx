import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { MAX_TAGS, normaliseTag } from '../../../../shared/tag-schema';
import { tagSuggestionsQueryOptions } from '../api/get-tag-suggestions';

/** A pause in typing this long asks for suggestions. */
const SUGGEST_AFTER_MS = 200;

/** The tag being typed: the text after the last comma or space, if the text does not end there. */
function partialTag(text: string): string {
  const match = /[^\s,]+$/.exec(text);
  return match ? normaliseTag(match[0]) : '';
}

export interface TagsFieldProps {
  value: string;
  onChange: (value: string) => void;
  invalid: { isInvalid: boolean; 'aria-invalid': true | undefined; 'aria-describedby': string | undefined };
  feedback: ReactNode;
}

/**
 * The Tags field: tags typed separated by commas or spaces, and, for the one being typed, the most
 * used existing tags starting with it as buttons that complete it.
 */
export function TagsField({ value, onChange, invalid, feedback }: TagsFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const typed = partialTag(value);
  const [prefix, setPrefix] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setPrefix(typed), SUGGEST_AFTER_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const suggestions = useQuery({ ...tagSuggestionsQueryOptions(prefix), enabled: prefix !== '' });

  const chosen = new Set(value.split(/[\s,]+/).filter(Boolean).map(normaliseTag));
  const offered = prefix !== '' && prefix === typed ? (suggestions.data?.items ?? []).filter((tag) => tag.name === typed || !chosen.has(tag.name)) : [];

  const complete = (tag: string) => {
    onChange(`${value.replace(/[^\s,]+$/, '')}${tag}, `);
    input.current?.focus();
  };

  const describedBy = ['blog-tags-help', invalid['aria-describedby']].filter(Boolean).join(' ');
  return (
    <Form.Group className="mb-3" controlId="blog-tags">
      <Form.Label>Tags</Form.Label>
      <Form.Control
        ref={input}
        type="text"
        value={value}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        onChange={(event) => onChange(event.target.value)}
        isInvalid={invalid.isInvalid}
        aria-invalid={invalid['aria-invalid']}
        aria-describedby={describedBy}
      />
      {feedback}
      <Form.Text id="blog-tags-help">
        Optional. Up to {MAX_TAGS}, separated by commas: lowercase words, or words joined by hyphens (web-design).
      </Form.Text>
      <div className="tag-suggestions d-flex flex-wrap gap-2 mt-2" role="group" aria-label="Suggested tags" aria-live="polite">
        {offered.map((tag) => (
          <Button key={tag.name} size="sm" variant="outline-secondary" onClick={() => complete(tag.name)}>
            {tag.name} <span className="text-body-secondary">({tag.blogs})</span>
          </Button>
        ))}
      </div>
    </Form.Group>
  );
}
