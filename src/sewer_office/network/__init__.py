"""The sewer network: imported versions, manholes, pipes, connections, trace and sampling points."""
