/** Request and answer shapes of the feedback calls (spec section 7). */
import { FEEDBACK_MAX_FILES } from '@herald/shared';
import { Type } from 'typebox';

const AttachedImage = Type.Optional(Type.String({ format: 'binary', description: 'A png or jpeg image of at most 5 MB' }));

/** The multipart form: text fields plus file0..file4. */
export const FeedbackForm = Type.Object({
  name: Type.String(),
  email: Type.String(),
  desc: Type.String(),
  ...Object.fromEntries(Array.from({ length: FEEDBACK_MAX_FILES }, (_, index) => [`file${index}`, AttachedImage])),
});

export const FeedbackCreated = Type.Object({ id: Type.Number() });

export const FeedbackPageQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const FeedbackFileInfo = Type.Object({
  id: Type.Number(),
  fileName: Type.String(),
  mimeType: Type.String(),
  sizeBytes: Type.Number(),
});

export const FeedbackPage = Type.Object({
  total: Type.Number(),
  items: Type.Array(
    Type.Object({
      id: Type.Number(),
      name: Type.String(),
      email: Type.String(),
      desc: Type.String(),
      createdAt: Type.Number(),
      files: Type.Array(FeedbackFileInfo),
    }),
  ),
});

export const FeedbackFileParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
