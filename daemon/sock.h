/*
 * sock.h -- the LLDP packet socket of one port.
 *
 * AF_PACKET/SOCK_RAW bound to the interface, with a classic BPF filter so
 * that only LLDP frames (0x88cc, also behind one 802.1Q tag) to one of the
 * three agent group addresses ever wake the daemon.
 */
#ifndef SOCK_H
#define SOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bits of 'agents': 1 << enum lldp_agent. */
int	sock_open(int ifindex, uint8_t agents);
/* Join or leave the group addresses so that 'agents' is what we hear. */
int	sock_set_agents(int fd, int ifindex, uint8_t old, uint8_t agents);
/* Send one whole Ethernet frame; 0 or negative errno. */
int	sock_send(int fd, int ifindex, const void *, size_t);
/*
 * Receive one frame without blocking.  Returns its full length (which may
 * exceed len: it was truncated), -EAGAIN when drained, or negative errno.
 */
ssize_t	sock_recv(int fd, void *, size_t len);
void	sock_close(int fd);

#endif /* SOCK_H */
