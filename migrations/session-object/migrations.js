import journal from './meta/_journal.json';
import m0000 from './0000_session_object.sql';
import m0001 from './0001_return_url.sql';
import m0002 from './0002_key_source.sql';
import m0003 from './0003_redaction.sql';
import m0004 from './0004_test_mode.sql';

  export default {
    journal,
    migrations: {
      m0000,
m0001,
m0002,
m0003,
m0004
    }
  }
  