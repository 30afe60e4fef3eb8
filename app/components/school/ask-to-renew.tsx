// Its own module, free of react-router: the reader's island imports it (app/components/reader/
// reader-error.tsx), and the book page's LicenceEnded (licence-ended.tsx) pulls in react-router's
// components through ButtonLink, 25 kB gzipped the reader does not otherwise load.

/**
 * Whom to ask for a book whose licence ended, the same words on the book's page and in the reader
 * (ReaderLicenceEnded): the school's own address; nothing when the school has none.
 */
export function AskToRenew({ schoolEmail, className, linkClassName }: { schoolEmail: string; className: string; linkClassName: string }) {
  if (!schoolEmail) return null;
  return (
    <p className={className}>
      To read it again, ask your school to renew it:{" "}
      <a className={`font-medium underline ${linkClassName}`} href={`mailto:${schoolEmail}`}>
        {schoolEmail}
      </a>
    </p>
  );
}
