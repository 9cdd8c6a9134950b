#!/usr/bin/python3
"""otf2_write.py — write an OTF2 archive with the OTF2 library's own writer
(Debian's python3-otf2), for tnav's OTF2 tests, and print as JSON what tnav
must make of it (doc/FORMAT.md, "OTF2").

usage: /usr/bin/python3 tests/otf2_write.py DIR > expected.json
The archive is DIR/traces.otf2 (DIR must not exist yet).

Three MPI ranks (location groups "MPI Rank 0..2", one "Master thread"
each), a timer of 1 GHz whose global offset (the writer sets it) is the
first timestamp, 1000:
  - every rank enters main at 0 and a nested compute region;
  - rank r sends 1024 * (r + 1) bytes to rank r + 1 (mod 3) with MPI_Send,
    tag 5, and receives from rank r - 1 with MPI_Recv;
  - rank 0 sends 64 bytes to rank 2 with MPI_Isend (tag 9), rank 2 gets it
    with MPI_Irecv;
  - a barrier on MPI_COMM_WORLD that rank 2 reaches last;
  - a metric "temperature" sampled twice per rank;
  - rank 2 never leaves main (an unfinished interval);
  - rank 0 forks an OpenMP team: a second thread ("OMP thread 1") runs a
    parallel region between the fork and the join.
"""
import json
import sys

import otf2
from otf2.enums import CollectiveOp, GroupType, LocationGroupType, Paradigm, RegionRole, Type

OFFSET = 1000


def main():
    path = sys.argv[1]
    with otf2.writer.open(path, timer_resolution=1000000000) as trace:
        defs = trace.definitions
        root = defs.system_tree_node("machine")
        node = defs.system_tree_node("node0", parent=root)
        groups = [defs.location_group("MPI Rank %d" % r, location_group_type=LocationGroupType.PROCESS,
                                      system_tree_parent=node) for r in range(3)]
        locs = [defs.location("Master thread", group=g) for g in groups]
        omp1 = defs.location("OMP thread 1", group=groups[0])
        comm_locs = defs.group("comm locations", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                               members=locs)
        world_g = defs.group("world", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=locs)
        world = defs.comm("MPI_COMM_WORLD", group=world_g)
        r_main = defs.region("main", region_role=RegionRole.FUNCTION)
        r_comp = defs.region("compute", region_role=RegionRole.FUNCTION)
        r_send = defs.region("MPI_Send", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
        r_recv = defs.region("MPI_Recv", region_role=RegionRole.POINT2POINT, paradigm=Paradigm.MPI)
        r_bar = defs.region("MPI_Barrier", region_role=RegionRole.BARRIER, paradigm=Paradigm.MPI)
        r_par = defs.region("!$omp parallel", region_role=RegionRole.PARALLEL, paradigm=Paradigm.OPENMP)
        temp = defs.metric_member("temperature", value_type=Type.DOUBLE, unit="C")
        mclass = defs.metric_class([temp])
        del comm_locs

        ev = {}
        for r in range(3):
            w = trace.event_writer_from_location(locs[r])
            t = OFFSET
            w.enter(t, r_main)
            w.enter(t + 10, r_comp)
            w.metric(t + 15, mclass, 20.0 + r)
            w.leave(t + 100 * (r + 1), r_comp)
            t = t + 100 * (r + 1) + 10
            # send to r + 1, then receive from r - 1
            w.enter(t, r_send)
            w.mpi_send(t + 1, (r + 1) % 3, world, 5, 1024 * (r + 1))
            w.leave(t + 5, r_send)
            w.enter(t + 6, r_recv)
            w.mpi_recv(t + 600, (r - 1) % 3, world, 5, 1024 * (((r - 1) % 3) + 1))
            w.leave(t + 601, r_recv)
            t = t + 700
            if r == 0:
                w.mpi_isend(t, 2, world, 9, 64, 1)
                w.mpi_isend_complete(t + 2, 1)
            if r == 2:
                w.mpi_irecv_request(t, 7)
                w.mpi_irecv(t + 50, 0, world, 9, 64, 7)
            t = OFFSET + 2000 + (500 if r == 2 else 10 * r)
            w.enter(t, r_bar)
            w.mpi_collective_begin(t + 1)
            w.mpi_collective_end(OFFSET + 2600, CollectiveOp.BARRIER, world, 0xFFFFFFFF, 0, 0)
            w.leave(OFFSET + 2601, r_bar)
            w.metric(OFFSET + 2700, mclass, 30.0 + r)
            if r != 2:
                w.leave(OFFSET + 3000 + r, r_main)
        # an OpenMP parallel region on rank 0: fork, both threads in it, join
        w0 = trace.event_writer_from_location(locs[0])
        w1 = trace.event_writer_from_location(omp1)
        w0.omp_fork(OFFSET + 3100, 2)
        w1.enter(OFFSET + 3110, r_par)
        w1.leave(OFFSET + 3190, r_par)
        w0.omp_join(OFFSET + 3200)
    # what tnav must show
    expected = {
        "events": 3 * 5 + 3 * 2 + 2 + 3 + 3 * 2 + 2 + 3,  # regions, p2p, isend/irecv, barrier syncs, metrics, marks, omp
        "kinds": {"state": 16, "send": 4, "recv": 4, "sync": 3, "counter": 6, "mark": 4},
        "messages": [
            {"src": "MPI Rank 0", "dst": "MPI Rank 1", "count": 1, "bytes": 1024},
            {"src": "MPI Rank 0", "dst": "MPI Rank 2", "count": 1, "bytes": 64},
            {"src": "MPI Rank 1", "dst": "MPI Rank 2", "count": 1, "bytes": 2048},
            {"src": "MPI Rank 2", "dst": "MPI Rank 0", "count": 1, "bytes": 3072},
        ],
        "t_min": 0,
        "locations": 3,
        "activities": 4,  # the three master threads and rank 0's OpenMP thread
        "sync_group": "MPI_COMM_WORLD#0",
        "last_loc": "MPI Rank 2",
        "unfinished": 1,
        # rank 0 enters MPI_Recv at 116 ns, rank 2 sends to it at 311 ns
        "late_sender": {"total_ns": 195, "victim": "MPI Rank 0", "culprit": "MPI Rank 2"},
        "max_depth": 2,
    }
    json.dump(expected, sys.stdout)
    print()


if __name__ == "__main__":
    main()
