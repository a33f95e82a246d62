#ifndef DAEMON_PFCWD_H
#define DAEMON_PFCWD_H
#endif
