import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function FoldersPage() {
  return <PageTitle title="Folders" />;
}
