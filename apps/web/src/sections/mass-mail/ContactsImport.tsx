/** Contact import (spec section 2): CSV or TXT with a preview of the first records. */
import { ImportWizard } from './contacts/ImportWizard';

export default function ContactsImport() {
  return <ImportWizard />;
}
