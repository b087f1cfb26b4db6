"""sm5sim: Direct3D 11 compute shaders (SM5 DXBC) run on the CPU, with
NumPy arrays in and out.

Load a shader, bind arrays to its resources by their HLSL names, set
constant buffers from dicts, dispatch, and read the results back as arrays.
docs/python.md in the repository is the guide.
"""

from ._native import (
    BindingError,
    CancelledError,
    CancelToken,
    CbufferVariable,
    Debugger,
    Dispatched,
    DispatchError,
    Error,
    FieldError,
    Finding,
    JobError,
    JobResult,
    JobStep,
    Kernel,
    LoadError,
    Message,
    NotBoundError,
    Profile,
    Resource,
    ResourceError,
    ResourceInfo,
    Shader,
    ShaderError,
    Stats,
    UnboundError,
    UnknownNameError,
    run_job,
)

__all__ = [
    "BindingError",
    "CancelledError",
    "CancelToken",
    "CbufferVariable",
    "Debugger",
    "DispatchError",
    "Dispatched",
    "Error",
    "FieldError",
    "Finding",
    "JobError",
    "JobResult",
    "JobStep",
    "Kernel",
    "LoadError",
    "Message",
    "NotBoundError",
    "Profile",
    "Resource",
    "ResourceError",
    "ResourceInfo",
    "Shader",
    "ShaderError",
    "Stats",
    "UnboundError",
    "UnknownNameError",
    "run_job",
]
