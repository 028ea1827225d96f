/** Contact lists: the audiences campaigns are sent to. */
import { ContactLists } from './contacts/ContactLists';

export default function Contacts() {
  return <ContactLists />;
}
