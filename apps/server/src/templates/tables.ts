import type { Generated } from 'kysely';

export interface TemplateCategoriesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  created_at: number;
}

export interface TemplatesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  category_id: number | null;
  /** EMAIL or SMS. */
  channel: string;
  subject: string;
  /** Exactly as the user gave it; never rewritten. */
  html: string;
  /** Plain-text part: the user's, or generated from html when text_generated is 1. */
  text: string;
  text_generated: number;
  sms_text: string;
  /** The visual builder's block JSON, so a built template reopens in the builder. */
  builder: string | null;
  created_at: number;
  updated_at: number;
}

/** Account-wide values every template reads as {{ vars.<name> }}. */
export interface TemplateVariablesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  value: string;
  created_at: number;
  updated_at: number;
}

/** The category the console's template screens open with. */
export interface TemplateCurrentCategoryTable {
  account_id: number;
  category_id: number;
}

export interface TemplateTables {
  template_categories: TemplateCategoriesTable;
  templates: TemplatesTable;
  template_variables: TemplateVariablesTable;
  template_current_category: TemplateCurrentCategoryTable;
}
