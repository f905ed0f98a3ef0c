import { PageHeader } from '../../components/PageHeader';
import { LoginHistoryList } from './HistoryLists';

/** The signed-in account's own sign-ins and sign-outs. */
export default function LoginHistoryPage() {
  return (
    <>
      <PageHeader
        title="Login history"
        description="Your own sign-ins and sign-outs, with the address they came from."
      />
      <LoginHistoryList accountId="own" />
    </>
  );
}
