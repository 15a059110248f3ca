/*
 * pfcswitch_dpdk.c: the C shim between DPDK and the Java FFM bindings (org.pfcswitch.dpdk).
 *
 * Why a shim at all: DPDK's fast path (rte_eth_rx_burst, rte_eth_tx_burst, rte_pktmbuf_alloc_bulk,
 * rte_mbuf_refcnt_update, rte_rdtsc) is static inline in the headers, so there is no symbol that
 * java.lang.foreign could bind. The shim compiles those inlines into exported functions.
 *
 * The control-plane wrappers exist for two more reasons:
 *  - they keep DPDK's structs (rte_eth_conf, rte_eth_link with bit fields, rte_eth_stats, ...) on
 *    the C side, so Java only passes scalars, strings and flat arrays and never mirrors a layout
 *    that changes between DPDK releases;
 *  - they report failures one way. DPDK itself either returns -errno (ethdev) or returns -1 / NULL
 *    and sets the thread-local rte_errno (EAL, mempool, ring, vdev). Every wrapper here that can
 *    fail returns a negative errno, read on the same thread right after the call, so Java never
 *    has to fetch rte_errno in a second downcall (possibly from another carrier thread).
 *
 * Conventions: port ids, queue ids and counts are passed as 32-bit ints (Java has no unsigned
 * short worth using) and narrowed here. Pointers to DPDK objects travel as opaque addresses.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_string_fns.h>

#define PFC_EXPORT __attribute__((visibility("default")))

/* rte_errno as a negative errno, or -fallback when a call failed without setting it. */
static int rte_errno_or(int fallback)
{
	return rte_errno > 0 ? -rte_errno : -fallback;
}

/* ------------------------------------------------------------------------------------------ */
/* Fast path: DPDK's static inlines, one call per burst. Java binds these with critical(false). */

/* rte_eth_rx_burst is static inline. Fills pkts[0..n) with received mbufs, returns how many. */
PFC_EXPORT int pfc_rx_burst(uint32_t port, uint32_t queue, struct rte_mbuf **pkts, uint32_t n)
{
	return rte_eth_rx_burst((uint16_t)port, (uint16_t)queue, pkts, (uint16_t)n);
}

/* rte_eth_tx_burst is static inline. Returns how many of pkts[0..n) the queue took; the caller
 * still owns pkts[ret..n) and must retry or free them. */
PFC_EXPORT int pfc_tx_burst(uint32_t port, uint32_t queue, struct rte_mbuf **pkts, uint32_t n)
{
	return rte_eth_tx_burst((uint16_t)port, (uint16_t)queue, pkts, (uint16_t)n);
}

/* rte_pktmbuf_alloc_bulk is static inline. All or nothing: 0 when pkts[0..n) holds n reset
 * mbufs, non-zero (and nothing taken from the pool) when the pool has fewer than n. */
PFC_EXPORT int pfc_mbuf_alloc_bulk(struct rte_mempool *pool, struct rte_mbuf **pkts, uint32_t n)
{
	return rte_pktmbuf_alloc_bulk(pool, pkts, n);
}

/* rte_pktmbuf_free_bulk is exported, but wrapping it lets Java bind the whole fast path from one
 * library with one set of options. Drops one reference from each mbuf (chains included). */
PFC_EXPORT void pfc_mbuf_free_bulk(struct rte_mbuf **pkts, uint32_t n)
{
	rte_pktmbuf_free_bulk(pkts, n);
}

/* rte_mbuf_refcnt_update is static inline. Java cannot do a 16-bit atomic add through a
 * MemorySegment, so reference counting (e.g. one mbuf flooded to several ports) comes here.
 * Returns the new count. */
PFC_EXPORT int pfc_mbuf_refcnt_update(struct rte_mbuf *m, int32_t delta)
{
	return rte_mbuf_refcnt_update(m, (int16_t)delta);
}

/* The same for a whole burst, so flooding costs one downcall per burst, not per packet. */
PFC_EXPORT void pfc_mbuf_refcnt_update_bulk(struct rte_mbuf **pkts, uint32_t n, int32_t delta)
{
	for (uint32_t i = 0; i < n; i++)
		rte_mbuf_refcnt_update(pkts[i], (int16_t)delta);
}

/* rte_rdtsc is static inline (an rdtsc instruction). */
PFC_EXPORT uint64_t pfc_tsc(void)
{
	return rte_rdtsc();
}

/* Exported by DPDK; here so the clock's two halves come from one place. Valid after EAL init. */
PFC_EXPORT uint64_t pfc_tsc_hz(void)
{
	return rte_get_tsc_hz();
}

/* ------------------------------------------------------------------------------------------ */
/* mbuf layout: Java reads and writes mbuf fields directly, at offsets it learns here. The layout
 * depends on DPDK's build configuration (e.g. RTE_IOVA_AS_PA moves `next` to the second cache
 * line), so nothing about it is written down on the Java side. */

struct field_info {
	const char *name;
	size_t offset;
	size_t size;
};

#define MBUF_FIELD(f) { #f, offsetof(struct rte_mbuf, f), sizeof(((struct rte_mbuf *)0)->f) }

static const struct field_info mbuf_fields[] = {
	MBUF_FIELD(buf_addr), MBUF_FIELD(data_off), MBUF_FIELD(refcnt),  MBUF_FIELD(nb_segs),
	MBUF_FIELD(port),     MBUF_FIELD(ol_flags), MBUF_FIELD(pkt_len), MBUF_FIELD(data_len),
	MBUF_FIELD(buf_len),  MBUF_FIELD(pool),     MBUF_FIELD(next),
};

/* Offset of struct rte_mbuf's field `name`, its size in *size; -ENOENT for an unknown name. */
PFC_EXPORT int pfc_mbuf_field(const char *name, int32_t *size)
{
	for (size_t i = 0; i < RTE_DIM(mbuf_fields); i++) {
		if (strcmp(mbuf_fields[i].name, name) == 0) {
			*size = (int32_t)mbuf_fields[i].size;
			return (int)mbuf_fields[i].offset;
		}
	}
	return -ENOENT;
}

/* Compile-time constants of the mbuf library; -ENOENT for an unknown name. */
PFC_EXPORT int64_t pfc_mbuf_constant(const char *name)
{
	if (strcmp(name, "headroom") == 0)
		return RTE_PKTMBUF_HEADROOM;
	if (strcmp(name, "mbuf_size") == 0) /* the private area starts right after the mbuf */
		return sizeof(struct rte_mbuf);
	if (strcmp(name, "default_buf_size") == 0)
		return RTE_MBUF_DEFAULT_BUF_SIZE;
	return -ENOENT;
}

/* ------------------------------------------------------------------------------------------ */
/* EAL */

/* rte_eal_init reports failure as -1 plus rte_errno; this returns the parsed-argument count or
 * -rte_errno. argv must stay valid for the life of the process (EAL may keep pointers into it). */
PFC_EXPORT int pfc_eal_init(int argc, char **argv)
{
	rte_errno = 0;
	int ret = rte_eal_init(argc, argv);
	return ret < 0 ? rte_errno_or(EINVAL) : ret;
}

PFC_EXPORT int pfc_eal_cleanup(void)
{
	return rte_eal_cleanup();
}

/* Makes the calling (non-EAL) thread an EAL thread: it gets an lcore id of its own, and with it
 * its own per-lcore mempool cache, so bulk allocs and frees from it stop touching the pool's ring
 * on every call. Returns the lcore id, or -rte_errno (E2BIG when every lcore id is taken). The
 * thread keeps its CPU affinity. */
PFC_EXPORT int pfc_thread_register(void)
{
	rte_errno = 0;
	if (rte_thread_register() != 0)
		return rte_errno_or(EINVAL);
	return (int)rte_lcore_id();
}

/* Gives the calling thread's lcore id back. Mbufs still in its cache stay counted as available. */
PFC_EXPORT void pfc_thread_unregister(void)
{
	rte_thread_unregister();
}

/* The calling thread's lcore id, or -1 (LCORE_ID_ANY) for a non-EAL thread. */
PFC_EXPORT int pfc_lcore_id(void)
{
	unsigned id = rte_lcore_id();
	return id == LCORE_ID_ANY ? -1 : (int)id;
}

/* rte_strerror knows DPDK's own errno values (E_RTE_SECONDARY, ...) as well as the libc ones. */
PFC_EXPORT const char *pfc_strerror(int errnum)
{
	return rte_strerror(errnum);
}

/* ------------------------------------------------------------------------------------------ */
/* Mempool */

/* A packet-mbuf pool. On success *out is the pool and 0 is returned; else -rte_errno. */
PFC_EXPORT int pfc_mempool_create(const char *name, uint32_t n, uint32_t cache_size, uint32_t priv_size,
				  uint32_t data_room_size, int32_t socket, struct rte_mempool **out)
{
	rte_errno = 0;
	*out = rte_pktmbuf_pool_create(name, n, cache_size, (uint16_t)priv_size, (uint16_t)data_room_size,
				       socket);
	return *out == NULL ? rte_errno_or(ENOMEM) : 0;
}

/* Mbufs taken from the pool and not yet returned (per-lcore caches count as returned). */
PFC_EXPORT uint32_t pfc_mempool_in_use(const struct rte_mempool *pool)
{
	return rte_mempool_in_use_count(pool);
}

PFC_EXPORT uint32_t pfc_mempool_available(const struct rte_mempool *pool)
{
	return rte_mempool_avail_count(pool);
}

PFC_EXPORT void pfc_mempool_free(struct rte_mempool *pool)
{
	rte_mempool_free(pool);
}

/* ------------------------------------------------------------------------------------------ */
/* Ethernet ports. The ethdev API already returns -errno, so most wrappers pass it through. */

/* rte_eth_dev_configure with a zeroed rte_eth_conf: no RSS, no offloads, default MTU. */
PFC_EXPORT int pfc_eth_configure(uint32_t port, uint32_t nb_rx, uint32_t nb_tx)
{
	struct rte_eth_conf conf;
	memset(&conf, 0, sizeof(conf));
	return rte_eth_dev_configure((uint16_t)port, (uint16_t)nb_rx, (uint16_t)nb_tx, &conf);
}

/* Default rx queue configuration from the PMD; received mbufs come from pool. */
PFC_EXPORT int pfc_eth_rx_queue_setup(uint32_t port, uint32_t queue, uint32_t nb_desc, int32_t socket,
				      struct rte_mempool *pool)
{
	return rte_eth_rx_queue_setup((uint16_t)port, (uint16_t)queue, (uint16_t)nb_desc,
				      (unsigned int)socket, NULL, pool);
}

PFC_EXPORT int pfc_eth_tx_queue_setup(uint32_t port, uint32_t queue, uint32_t nb_desc, int32_t socket)
{
	return rte_eth_tx_queue_setup((uint16_t)port, (uint16_t)queue, (uint16_t)nb_desc,
				      (unsigned int)socket, NULL);
}

PFC_EXPORT int pfc_eth_start(uint32_t port)
{
	return rte_eth_dev_start((uint16_t)port);
}

PFC_EXPORT int pfc_eth_stop(uint32_t port)
{
	return rte_eth_dev_stop((uint16_t)port);
}

PFC_EXPORT int pfc_eth_close(uint32_t port)
{
	return rte_eth_dev_close((uint16_t)port);
}

PFC_EXPORT int pfc_eth_promiscuous(uint32_t port, int enable)
{
	return enable ? rte_eth_promiscuous_enable((uint16_t)port)
		      : rte_eth_promiscuous_disable((uint16_t)port);
}

/* 1 if promiscuous, 0 if not, -errno for a bad port. */
PFC_EXPORT int pfc_eth_promiscuous_get(uint32_t port)
{
	return rte_eth_promiscuous_get((uint16_t)port);
}

/* The port's MAC address as six bytes into out[0..6). */
PFC_EXPORT int pfc_eth_mac_address(uint32_t port, uint8_t *out)
{
	struct rte_ether_addr addr;
	int ret = rte_eth_macaddr_get((uint16_t)port, &addr);
	if (ret == 0)
		memcpy(out, addr.addr_bytes, RTE_ETHER_ADDR_LEN);
	return ret;
}

/* rte_eth_link packs status, duplex and autoneg into bit fields; this unpacks them without
 * waiting for the link to settle: *speed_mbps, *up, *full_duplex. */
PFC_EXPORT int pfc_eth_link(uint32_t port, uint32_t *speed_mbps, int32_t *up, int32_t *full_duplex)
{
	struct rte_eth_link link;
	memset(&link, 0, sizeof(link));
	int ret = rte_eth_link_get_nowait((uint16_t)port, &link);
	if (ret == 0) {
		*speed_mbps = link.link_speed;
		*up = link.link_status == RTE_ETH_LINK_UP;
		*full_duplex = link.link_duplex == RTE_ETH_LINK_FULL_DUPLEX;
	}
	return ret;
}

/* The port-wide counters of rte_eth_stats, in this order (the per-queue arrays are left out):
 * ipackets, opackets, ibytes, obytes, imissed, ierrors, oerrors, rx_nombuf. */
PFC_EXPORT int pfc_eth_stats(uint32_t port, uint64_t *out)
{
	struct rte_eth_stats s;
	int ret = rte_eth_stats_get((uint16_t)port, &s);
	if (ret == 0) {
		out[0] = s.ipackets;
		out[1] = s.opackets;
		out[2] = s.ibytes;
		out[3] = s.obytes;
		out[4] = s.imissed;
		out[5] = s.ierrors;
		out[6] = s.oerrors;
		out[7] = s.rx_nombuf;
	}
	return ret;
}

PFC_EXPORT int pfc_eth_stats_reset(uint32_t port)
{
	return rte_eth_stats_reset((uint16_t)port);
}

/* How many extended statistics the port has, or -errno. */
PFC_EXPORT int pfc_eth_xstats_count(uint32_t port)
{
	return rte_eth_xstats_get_names((uint16_t)port, NULL, 0);
}

/* Up to n extended statistics: names as NUL-terminated strings in consecutive slots of
 * name_stride bytes, values in values[]. Returns how many were written, -ENOSPC if the port has
 * more than n (ask for the count again: queues may have been added), or -errno. */
PFC_EXPORT int pfc_eth_xstats(uint32_t port, char *names, uint32_t name_stride, uint64_t *values, uint32_t n)
{
	struct rte_eth_xstat_name *xnames = calloc(n ? n : 1, sizeof(*xnames));
	struct rte_eth_xstat *xvalues = calloc(n ? n : 1, sizeof(*xvalues));
	int ret = -ENOMEM;
	if (xnames == NULL || xvalues == NULL)
		goto out;

	int nb_names = rte_eth_xstats_get_names((uint16_t)port, xnames, n);
	int nb_values = rte_eth_xstats_get((uint16_t)port, xvalues, n);
	if (nb_names < 0 || nb_values < 0) {
		ret = nb_names < 0 ? nb_names : nb_values;
		goto out;
	}
	if ((uint32_t)nb_names > n || (uint32_t)nb_values > n || nb_names != nb_values) {
		ret = -ENOSPC;
		goto out;
	}
	/* A value's id indexes the names array; usually the identity, but not promised. */
	for (int i = 0; i < nb_values; i++) {
		uint64_t id = xvalues[i].id;
		const char *name = id < (uint64_t)nb_names ? xnames[id].name : "?";
		strlcpy(names + (size_t)i * name_stride, name, name_stride);
		values[i] = xvalues[i].value;
	}
	ret = nb_values;
out:
	free(xnames);
	free(xvalues);
	return ret;
}

/* Port id for an ethdev name (e.g. "net_ring0"), or -errno. */
PFC_EXPORT int pfc_eth_port_by_name(const char *name)
{
	uint16_t port;
	int ret = rte_eth_dev_get_port_by_name(name, &port);
	return ret < 0 ? ret : port;
}

/* The ethdev name of a port into buf (RTE_ETH_NAME_MAX_LEN bytes are always enough), or -errno:
 * -ENODEV for a port id that is not in use, which is how Java validates ids. */
PFC_EXPORT int pfc_eth_port_name(uint32_t port, char *buf, uint32_t size)
{
	char name[RTE_ETH_NAME_MAX_LEN];
	if (port >= RTE_MAX_ETHPORTS)
		return -ENODEV; /* rte_eth_dev_get_name_by_port takes a uint16_t: 65536 would wrap to 0 */
	int ret = rte_eth_dev_get_name_by_port((uint16_t)port, name);
	if (ret == 0)
		strlcpy(buf, name, size);
	return ret;
}

/* The first valid, unowned port id >= from, or -1 when there is none. RTE_ETH_FOREACH_DEV is a
 * macro over the exported rte_eth_find_next_owned_by, so Java iterates with this. */
PFC_EXPORT int pfc_eth_next_port(uint32_t from)
{
	if (from >= RTE_MAX_ETHPORTS)
		return -1;
	uint64_t next = rte_eth_find_next_owned_by((uint16_t)from, RTE_ETH_DEV_NO_OWNER);
	return next >= RTE_MAX_ETHPORTS ? -1 : (int)next;
}

/* NUMA socket of the port's device; -1 (SOCKET_ID_ANY) when unknown, e.g. for vdevs. */
PFC_EXPORT int pfc_eth_socket(uint32_t port)
{
	return rte_eth_dev_socket_id((uint16_t)port);
}

/* Asks the PMD to pass MAC control frames (802.3x PAUSE, 802.1Qbb PFC) up to software instead
 * of consuming them, keeping the rest of its flow-control settings. Returns 1 when set, 0 when
 * the PMD has no flow-control support at all (-ENOTSUP from get or set), else -errno. */
PFC_EXPORT int pfc_eth_mac_ctrl_frame_fwd(uint32_t port, int enable)
{
	struct rte_eth_fc_conf fc;
	memset(&fc, 0, sizeof(fc));
	int ret = rte_eth_dev_flow_ctrl_get((uint16_t)port, &fc);
	if (ret == 0) {
		fc.mac_ctrl_frame_fwd = enable ? 1 : 0;
		ret = rte_eth_dev_flow_ctrl_set((uint16_t)port, &fc);
	}
	if (ret == -ENOTSUP)
		return 0;
	return ret < 0 ? ret : 1;
}

/* Has the NIC send PFC for `priority` from its own receive buffer (a backstop behind the switch's
 * software PFC): XOFF once the buffer holds `high_water`, XON below `low_water` (units as the PMD
 * takes them: KiB for ixgbe), `pause_time` quanta per XOFF. TX_PAUSE only: received PFC frames stay
 * with software (MAC-control forwarding). Returns 0, -ENOTSUP or -ENOSYS when the PMD cannot,
 * else -errno. */
PFC_EXPORT int pfc_eth_priority_flow_ctrl_set(uint32_t port, int priority, uint32_t high_water, uint32_t low_water,
		int pause_time)
{
	struct rte_eth_pfc_conf pfc;
	memset(&pfc, 0, sizeof(pfc));
	pfc.fc.mode = RTE_ETH_FC_TX_PAUSE;
	pfc.fc.high_water = high_water;
	pfc.fc.low_water = low_water;
	pfc.fc.pause_time = (uint16_t)pause_time;
	pfc.fc.send_xon = 1;
	pfc.priority = (uint8_t)priority;
	return rte_eth_dev_priority_flow_ctrl_set((uint16_t)port, &pfc);
}

/* ------------------------------------------------------------------------------------------ */
/* Virtual devices and rings: creating ports at run time (tests, clone ports, the lab's vdevs). */

/* Hot-plugs a virtual device (e.g. name "net_null1", args "" or "iface=pv0"). rte_vdev_init
 * returns -1 without rte_errno for a name no driver claims; that becomes -ENODEV. */
PFC_EXPORT int pfc_vdev_create(const char *name, const char *args)
{
	rte_errno = 0;
	int ret = rte_vdev_init(name, args);
	if (ret == 0)
		return 0;
	if (ret < -1)
		return ret;
	return rte_errno_or(ENODEV);
}

/* Removes a virtual device; its PMD closes and releases the ethdev port. */
PFC_EXPORT int pfc_vdev_remove(const char *name)
{
	int ret = rte_vdev_uninit(name);
	return ret > 0 ? -ENODEV : ret;
}

/* A single-producer single-consumer ring of `count` slots (a power of two; it holds count - 1).
 * One ring per direction is all a back-to-back pair of net_ring ports needs. */
PFC_EXPORT int pfc_ring_create(const char *name, uint32_t count, int32_t socket, struct rte_ring **out)
{
	rte_errno = 0;
	*out = rte_ring_create(name, count, socket, RING_F_SP_ENQ | RING_F_SC_DEQ);
	return *out == NULL ? rte_errno_or(ENOMEM) : 0;
}

PFC_EXPORT void pfc_ring_free(struct rte_ring *ring)
{
	rte_ring_free(ring);
}

/* A net_ring port named "net_ring_<name>" that receives from rx and transmits into tx.
 * Returns the port id or -rte_errno. Two of them with crossed rings make a wire: what one
 * transmits, the other receives. (Plain --vdev=net_ringN devices are each a loopback onto
 * themselves, and their nodeaction=...:ATTACH option cannot give a second port the same rings.) */
PFC_EXPORT int pfc_eth_from_rings(const char *name, struct rte_ring *rx, struct rte_ring *tx, int32_t socket)
{
	rte_errno = 0;
	int ret = rte_eth_from_rings(name, &rx, 1, &tx, 1, (unsigned int)socket);
	return ret < 0 ? rte_errno_or(EINVAL) : ret;
}
