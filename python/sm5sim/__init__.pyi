"""Type stubs of sm5sim (checked against the module by mypy's stubtest)."""

import os
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union, final

import numpy.typing as npt

__all__ = [
    "BindingError",
    "CancelledError",
    "CancelToken",
    "CbufferVariable",
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

_Groups = Union[int, Sequence[int]]
_Shape = Sequence[int]
_Texel = Tuple[int, int, int]

class Error(Exception):
    """Every refusal of sm5sim; the message names what and where."""

class LoadError(Error): ...
class UnknownNameError(Error): ...
class BindingError(Error): ...
class FieldError(Error): ...
class ResourceError(Error): ...
class NotBoundError(Error): ...
class UnboundError(Error): ...
class ShaderError(Error): ...
class DispatchError(Error): ...
class CancelledError(DispatchError): ...
class JobError(Error): ...

@final
class CancelToken:
    """A flag to stop dispatches from another thread."""

    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    def reset(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

@final
class ResourceInfo:
    """One resource slot a shader declares."""

    @property
    def name(self) -> Optional[str]: ...
    @property
    def slot(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def declared(self) -> str: ...
    @property
    def stride(self) -> Optional[int]: ...
    @property
    def dimension(self) -> Optional[str]: ...
    @property
    def element_type(self) -> Optional[str]: ...

@final
class CbufferVariable:
    """One variable of a constant buffer."""

    @property
    def name(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def elements(self) -> int: ...

@final
class Shader:
    """A compute shader ready to run, and its reflection."""

    @staticmethod
    def load(path: Union[str, "os.PathLike[str]"]) -> Shader: ...
    @staticmethod
    def from_bytes(data: bytes, name: str = "shader") -> Shader: ...
    @staticmethod
    def compile(
        source: str,
        *,
        entry: str = "main",
        profile: str = "cs_5_0",
        defines: Optional[Mapping[str, Optional[str]]] = None,
        include_dirs: Sequence[Union[str, "os.PathLike[str]"]] = ...,
        name: str = "shader.hlsl",
        fxc: Optional[Union[str, "os.PathLike[str]"]] = None,
    ) -> Shader: ...
    @property
    def name(self) -> str: ...
    @property
    def thread_group(self) -> Tuple[int, int, int]: ...
    @property
    def resources(self) -> list[ResourceInfo]: ...
    def cbuffer(self, name: str) -> list[CbufferVariable]: ...

@final
class Resource:
    """A buffer or texture; copies of the handle share the storage."""

    @staticmethod
    def buffer(array: npt.NDArray[Any]) -> Resource: ...
    @staticmethod
    def zeros(nbytes: int) -> Resource: ...
    @staticmethod
    def texture(
        array: npt.NDArray[Any],
        format: Optional[str] = None,
        dimension: Optional[str] = None,
    ) -> Resource: ...
    @staticmethod
    def empty_texture(
        format: str,
        width: int,
        height: int = 1,
        depth: int = 1,
        array_size: int = 1,
        mip_levels: int = 1,
    ) -> Resource: ...
    def read(
        self,
        dtype: Optional[npt.DTypeLike] = None,
        shape: Optional[_Shape] = None,
        *,
        out: Optional[npt.NDArray[Any]] = None,
    ) -> npt.NDArray[Any]: ...
    def read_texture(self, mip: int = 0) -> npt.NDArray[Any]: ...
    def write(self, array: npt.NDArray[Any], offset: int = 0) -> None: ...
    def read_subresource(self, mip: int = 0, slice: int = 0) -> npt.NDArray[Any]: ...
    def write_subresource(self, mip: int, slice: int, array: npt.NDArray[Any]) -> None: ...
    def copy_from(self, src: Resource) -> None: ...
    def copy_region(
        self,
        src: Resource,
        *,
        src_offset: int = 0,
        dst_offset: int = 0,
        nbytes: Optional[int] = None,
    ) -> None: ...
    def copy_texture_region(
        self,
        src: Resource,
        *,
        src_mip: int = 0,
        src_slice: int = 0,
        dst_mip: int = 0,
        dst_slice: int = 0,
        src_box: Optional[Tuple[_Texel, _Texel]] = None,
        dst: _Texel = (0, 0, 0),
    ) -> None: ...
    def copy_structure_count(self, src: Resource, offset: int = 0) -> None: ...
    @property
    def nbytes(self) -> int: ...
    @property
    def is_texture(self) -> bool: ...
    @property
    def format(self) -> Optional[str]: ...
    @property
    def counter(self) -> int: ...
    @counter.setter
    def counter(self, value: int) -> None: ...

@final
class Stats:
    """A dispatch's counters."""

    @property
    def groups(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @property
    def warp_instructions(self) -> int: ...
    @property
    def barriers(self) -> int: ...
    @property
    def aborted_threads(self) -> int: ...
    @property
    def debug_breaks(self) -> int: ...

@final
class Profile:
    """Where a dispatch's time went."""

    @property
    def wall_seconds(self) -> float: ...
    @property
    def warp_instructions(self) -> int: ...
    @property
    def lane_instructions(self) -> int: ...
    @property
    def simd_efficiency(self) -> float: ...
    @property
    def opcodes(self) -> list[Tuple[str, int]]: ...
    @property
    def atomics(self) -> int: ...
    @property
    def compare_exchanges(self) -> int: ...
    @property
    def cas_retries(self) -> int: ...
    @property
    def tgsm_bytes_read(self) -> int: ...
    @property
    def tgsm_bytes_written(self) -> int: ...
    @property
    def uav_bytes_read(self) -> int: ...
    @property
    def uav_bytes_written(self) -> int: ...
    @property
    def srv_bytes_read(self) -> int: ...
    @property
    def worker_busy_seconds(self) -> list[float]: ...
    def as_dict(self) -> dict[str, Any]: ...

@final
class Finding:
    """One finding of the concurrency checker."""

    @property
    def kind(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def resource(self) -> Optional[str]: ...
    @property
    def resource_name(self) -> Optional[str]: ...
    @property
    def byte_offset(self) -> Optional[int]: ...
    @property
    def element(self) -> Optional[str]: ...
    @property
    def count(self) -> int: ...
    @property
    def benign(self) -> bool: ...
    @property
    def note(self) -> Optional[str]: ...
    @property
    def text(self) -> str: ...

@final
class Dispatched:
    """What a dispatch reported besides its effects on the resources."""

    @property
    def groups(self) -> Tuple[int, int, int]: ...
    @property
    def stats(self) -> Stats: ...
    @property
    def profile(self) -> Optional[Profile]: ...
    @property
    def findings(self) -> list[Finding]: ...
    @property
    def errors(self) -> list[Finding]: ...
    @property
    def stopped(self) -> Optional[str]: ...
    @property
    def elapsed(self) -> float: ...
    def report(self) -> str: ...

@final
class Kernel:
    """A shader and the resources, constants and samplers bound to it."""

    def __new__(cls, shader: Shader) -> Kernel: ...
    @property
    def shader(self) -> Shader: ...
    def bind(
        self,
        name: str,
        value: Union[npt.NDArray[Any], Resource, None],
        format: Optional[str] = None,
        *,
        mip: Optional[int] = None,
        mip_count: Optional[int] = None,
        first_slice: Optional[int] = None,
        slice_count: Optional[int] = None,
        first_element: Optional[int] = None,
        elements: Optional[int] = None,
        cast: Optional[str] = None,
    ) -> Kernel: ...
    def bind_null(self, name: str) -> Kernel: ...
    def bind_sampler(self, name: str) -> Kernel: ...
    def set_constants(self, cbuffer: str, fields: Mapping[str, Any]) -> Kernel: ...
    def replace_constants(self, cbuffer: str, fields: Mapping[str, Any]) -> Kernel: ...
    def set_constant_words(self, cbuffer: str, words: Sequence[int]) -> Kernel: ...
    def resource(self, name: str) -> Resource: ...
    def read(
        self,
        name: str,
        dtype: Optional[npt.DTypeLike] = None,
        shape: Optional[_Shape] = None,
        *,
        out: Optional[npt.NDArray[Any]] = None,
    ) -> npt.NDArray[Any]: ...
    def unbind(self, name: str) -> bool: ...
    def dispatch(
        self,
        groups: _Groups,
        *,
        threads: int = 0,
        warp_width: Optional[int] = None,
        schedule: Optional[int] = None,
        watchdog: Optional[int] = None,
        timeout: Optional[float] = 60.0,
        profile: bool = False,
        check: bool = False,
        cancel: Optional[CancelToken] = None,
        progress: Optional[Callable[[int, int], object]] = None,
    ) -> Dispatched: ...
    def dispatch_threads(
        self,
        counts: _Groups,
        *,
        threads: int = 0,
        warp_width: Optional[int] = None,
        schedule: Optional[int] = None,
        watchdog: Optional[int] = None,
        timeout: Optional[float] = 60.0,
        profile: bool = False,
        check: bool = False,
        cancel: Optional[CancelToken] = None,
        progress: Optional[Callable[[int, int], object]] = None,
    ) -> Dispatched: ...
    def dispatch_indirect(
        self,
        args: Resource,
        offset: int = 0,
        *,
        threads: int = 0,
        warp_width: Optional[int] = None,
        schedule: Optional[int] = None,
        watchdog: Optional[int] = None,
        timeout: Optional[float] = 60.0,
        profile: bool = False,
        check: bool = False,
        cancel: Optional[CancelToken] = None,
        progress: Optional[Callable[[int, int], object]] = None,
    ) -> Dispatched: ...
    def indirect_groups(self, args: Resource, offset: int = 0) -> Tuple[int, int, int]: ...
    def srv_uav_hazards(self) -> list[Tuple[Tuple[str, str], Tuple[str, str]]]: ...

@final
class JobStep:
    """One step of a job file and its outcome."""

    @property
    def index(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def passed(self) -> bool: ...
    @property
    def mismatches(self) -> int: ...
    @property
    def text(self) -> str: ...

@final
class JobResult:
    """What run_job did with a job file."""

    @property
    def path(self) -> str: ...
    @property
    def skipped(self) -> Optional[str]: ...
    @property
    def steps(self) -> list[JobStep]: ...
    @property
    def findings(self) -> list[Finding]: ...
    @property
    def errors(self) -> list[Finding]: ...
    @property
    def error(self) -> Optional[str]: ...
    @property
    def warnings(self) -> list[str]: ...
    @property
    def checked(self) -> bool: ...
    @property
    def passed(self) -> bool: ...
    def report(self) -> str: ...

def run_job(
    path: Union[str, "os.PathLike[str]"],
    *,
    check: bool = False,
    threads: int = 0,
    timeout: Optional[float] = 60.0,
    fxc: Optional[Union[str, "os.PathLike[str]"]] = None,
) -> JobResult: ...
