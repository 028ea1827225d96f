/** One contact list and its contacts. */
import { ContactsView } from './contacts/ContactsView';

export default function ContactView() {
  return <ContactsView />;
}
