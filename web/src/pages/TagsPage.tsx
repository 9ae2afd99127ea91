import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function TagsPage() {
  return <PageTitle title="Tags" />;
}
